export interface FleetInstance {
  /** The instance's own console origin, e.g. http://127.0.0.1:8090/ (its remotes on the next five ports). */
  url: string;
  port: number;
  /** Of the running process (undefined before its first start). */
  readonly pid: number | undefined;
  /** Sends `signal` (default SIGTERM) and resolves when the process has ended. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Stops the instance if it runs (SIGTERM), starts it again and resolves once it is ready. */
  restart(): Promise<void>;
}

export interface FleetProxy {
  /** The console through nginx: http://HOST:PORT/. */
  url: string;
  readonly pid: number | undefined;
  /** Starts nginx and resolves once it serves the console. */
  start(): Promise<void>;
  /** Stops nginx at once (SIGTERM: open connections, event streams included, are closed). */
  stop(): Promise<void>;
  restart(): Promise<void>;
}

export interface Fleet {
  /** The console through nginx. */
  url: string;
  /** The database every instance serves (the throwaway cluster's unless one was given). */
  databaseUrl: string;
  instances: FleetInstance[];
  proxy: FleetProxy;
  /** Stops the instances (SIGTERM, waiting for them), then nginx, then the cluster; removes the temp folders. */
  stop(): Promise<void>;
}

export interface FleetOptions {
  /** How many instances (default 2). */
  instances?: number;
  /** nginx's console port (default PORT, else 8080); remotes on PORT+1 … PORT+5, instance i on PORT+10·i. */
  port?: number;
  /** The PostgreSQL database to serve; without it a throwaway cluster is started. */
  databaseUrl?: string;
  /** The instances' environment (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Where the instances' and nginx's output lines go (default stdout, each prefixed with its label). */
  output?: (label: string, line: string) => void;
}

/** Debian's nginx, /usr/sbin/nginx, unless VERITAS_NGINX_BIN names another. */
export const NGINX_BIN: string;

/** The port of instance `index` (from 0) for a fleet on `port`. */
export function instancePort(port: number, index: number): number;

export function startFleet(options?: FleetOptions): Promise<Fleet>;
