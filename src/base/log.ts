// What pure modules log through. VS Code's LogOutputChannel satisfies it as it is; tests pass a
// recording logger. Never log secrets, file contents or reminder bodies at info level or above.
export interface Logger {
	trace(message: string, ...args: unknown[]): void;
	debug(message: string, ...args: unknown[]): void;
	info(message: string, ...args: unknown[]): void;
	warn(message: string, ...args: unknown[]): void;
	error(error: string | Error, ...args: unknown[]): void;
}
