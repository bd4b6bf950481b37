import type { Logger } from '../base/log';

export interface LogLine {
	readonly level: 'trace' | 'debug' | 'info' | 'warn' | 'error';
	readonly message: string;
}

/** A Logger for tests that keeps every line. */
export class RecordingLogger implements Logger {
	readonly lines: LogLine[] = [];

	trace(message: string): void {
		this.lines.push({ level: 'trace', message });
	}
	debug(message: string): void {
		this.lines.push({ level: 'debug', message });
	}
	info(message: string): void {
		this.lines.push({ level: 'info', message });
	}
	warn(message: string): void {
		this.lines.push({ level: 'warn', message });
	}
	error(error: string | Error): void {
		this.lines.push({ level: 'error', message: typeof error === 'string' ? error : error.message });
	}

	at(level: LogLine['level']): string[] {
		return this.lines.filter((line) => line.level === level).map((line) => line.message);
	}
}
