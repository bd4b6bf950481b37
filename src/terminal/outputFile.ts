// A process's output file in the chat's storage (processOutput.ts keeps what goes in and its bound).
// Written synchronously, one write per chunk of lines; a file that cannot be written stops taking
// output and says why, while the ring still has the last lines.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { errorMessage } from '../base/errors';
import type { OutputFile } from './processOutput';

export class FileOutput implements OutputFile {
	private fd: number | undefined;
	/** Why the file stopped taking output, when it did. */
	problem: string | undefined;

	constructor(readonly path: string) {
		try {
			mkdirSync(dirname(path), { recursive: true });
			this.fd = openSync(path, 'w');
		} catch (error) {
			this.problem = `the output file ${path} could not be created: ${errorMessage(error)}`;
		}
	}

	append(text: string): void {
		if (this.fd === undefined) {
			return;
		}
		try {
			writeSync(this.fd, text);
		} catch (error) {
			this.problem = `writing the output file ${this.path} failed: ${errorMessage(error)}`;
			this.close();
		}
	}

	close(): void {
		if (this.fd !== undefined) {
			const fd = this.fd;
			this.fd = undefined;
			try {
				closeSync(fd);
			} catch {
				// Closed already.
			}
		}
	}
}
