// Small inline icons for the expected device type: no icon font or image requests, and they
// take the text colour of the cell.
import type { DeviceIconType } from '@veritas/shared';
import type { ReactNode } from 'react';

const PATHS: Record<DeviceIconType, ReactNode> = {
  smarttv: (
    <>
      <rect x="2" y="4" width="20" height="13" rx="1.5" />
      <path d="M8 21h8M12 17v4" />
    </>
  ),
  laptop: (
    <>
      <rect x="4" y="5" width="16" height="11" rx="1" />
      <path d="M2 19h20" />
    </>
  ),
  tablet: (
    <>
      <rect x="4" y="2" width="16" height="20" rx="2" />
      <path d="M11 18h2" />
    </>
  ),
  mobile: (
    <>
      <rect x="7" y="2" width="10" height="20" rx="2" />
      <path d="M11 18h2" />
    </>
  ),
  truewireless: (
    <>
      <path d="M7 4a3 3 0 0 0-3 3v3a3 3 0 0 0 3 3h1V4z" />
      <path d="M8 13v6" />
      <path d="M17 4a3 3 0 0 1 3 3v3a3 3 0 0 1-3 3h-1V4z" />
      <path d="M16 13v6" />
    </>
  ),
  generic: (
    <>
      <rect x="5" y="5" width="14" height="14" rx="2" />
      <rect x="9" y="9" width="6" height="6" />
      <path d="M9 2v3M15 2v3M9 19v3M15 19v3M2 9h3M2 15h3M19 9h3M19 15h3" />
    </>
  ),
};

const LABELS: Record<DeviceIconType, string> = {
  smarttv: 'Smart TV',
  laptop: 'Laptop',
  tablet: 'Tablet',
  mobile: 'Mobile',
  truewireless: 'True wireless earbuds',
  generic: 'Device',
};

export function DeviceIcon({ type }: { type: DeviceIconType }) {
  return (
    <svg
      className="dl-device-icon"
      data-device-type={type}
      role="img"
      aria-label={LABELS[type]}
      viewBox="0 0 24 24"
      width="22"
      height="22"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {PATHS[type]}
    </svg>
  );
}
