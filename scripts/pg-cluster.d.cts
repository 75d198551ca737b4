export interface PgCluster {
  /** URL of the maintenance database `postgres`. */
  url: string;
  /** A fast restart (pg_ctl restart -m fast): connections are dropped, the server is back in about a second. */
  restart(): Promise<void>;
  /** Stops the server and removes its folder. */
  stop(): void;
}

/** Where the PostgreSQL 15 programs are: VERITAS_PG_BIN, default /usr/lib/postgresql/15/bin. */
export const PG_BIN: string;

export function startPgCluster(): Promise<PgCluster>;
