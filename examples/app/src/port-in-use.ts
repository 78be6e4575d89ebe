import { ConfigError } from "./config.js";

/** `PORT` is held by another process: a setting that cannot be used, said in one line. */
export class PortInUseError extends ConfigError {
  constructor(readonly port: number) {
    super(`port ${port} is in use`);
  }
}

/**
 * The exit code of a cluster worker that found its port in use. It says nothing itself: the
 * primary decides whether to try another port (one it picked) or to say so (one it was given).
 * 98 is EADDRINUSE's number on Linux.
 */
export const PORT_IN_USE_EXIT_CODE = 98;
