// File sizes as the data pages show them (binary units, like the 1 MiB chunks and the 100 MiB limit).
const KIB = 1024;
const MIB = KIB * KIB;

/** A selected file's size, e.g. '1536.00 KB'. */
export function formatKilobytes(bytes: number): string {
  return `${(bytes / KIB).toFixed(2)} KB`;
}

/** An amount received so far, e.g. '512 B', '3.4 KB', '1.2 MB'. */
export function formatBytes(bytes: number): string {
  if (bytes < KIB) return `${bytes} B`;
  if (bytes < MIB) return `${(bytes / KIB).toFixed(1)} KB`;
  return `${(bytes / MIB).toFixed(1)} MB`;
}
