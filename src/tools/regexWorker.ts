// Grep's regular expression, run off the extension host's thread. A JavaScript RegExp
// backtracks: `^(a+)+$` on a 29-byte line runs for 25 s, and on the host thread nothing else
// (Stop included) would run meanwhile. In a worker thread the host stays responsive, and
// `terminate()` stops even a regex in the middle of backtracking (V8 checks for termination
// inside regex execution). The worker is one `eval` source string, so it needs no bundle of
// its own.
import { Worker } from 'node:worker_threads';
import { Emitter, type Event } from '../base/event';

export interface LineMatch {
	/** 1-based. */
	readonly line: number;
	readonly text: string;
}

export interface FileMatches {
	readonly matches: readonly LineMatch[];
	/** The search already holds `maxResults` matches and this file had one more: stop searching. */
	readonly full: boolean;
}

interface WorkerSetup {
	readonly pattern: string;
	readonly flags: string;
	readonly maxResults: number;
}

type FromWorker = { readonly type: 'start'; readonly id: number } | ({ readonly type: 'done'; readonly id: number } & FileMatches);

/**
 * The worker's code. It is sent as source text, so it must stay self-contained: no imports, no
 * outer variables, only what its parameters and the JavaScript globals give it. Files arrive in
 * order; each is decoded as UTF-8, split into lines as splitLines does (`\n`, `\r\n` and `\r`
 * end a line; a final line break adds none) and tested line by line.
 */
function workerMain(port: { on(event: 'message', listener: (file: { id: number; bytes: Uint8Array }) => void): void; postMessage(value: FromWorker): void }, setup: WorkerSetup): void {
	const regex = new RegExp(setup.pattern, setup.flags);
	const decoder = new TextDecoder();
	let found = 0;
	port.on('message', (file) => {
		port.postMessage({ type: 'start', id: file.id });
		const text = decoder.decode(file.bytes);
		const lines = text === '' ? [] : text.split(/\r\n|\n|\r/);
		if (lines.length > 0 && lines[lines.length - 1] === '') {
			lines.pop();
		}
		const matches: LineMatch[] = [];
		let full = false;
		for (let index = 0; index < lines.length; index++) {
			const line = lines[index] ?? '';
			if (regex.test(line)) {
				if (found === setup.maxResults) {
					full = true;
					break;
				}
				found++;
				matches.push({ line: index + 1, text: line });
			}
		}
		port.postMessage({ type: 'done', id: file.id, matches, full });
	});
}

const WORKER_SOURCE = `const { parentPort, workerData } = require('node:worker_threads');\n(${workerMain.toString()})(parentPort, workerData);\n`;

/** Why a match() did not finish: the worker was stopped (Stop, a time budget) or died. */
export class RegexWorkerStopped extends Error {
	override readonly name = 'RegexWorkerStopped';
}

/** One search's worker: files go in, in order, and their matching lines come back. */
export class RegexWorker {
	private readonly worker: Worker;
	private nextId = 0;
	private readonly waiting = new Map<number, { resolve(value: FileMatches): void; reject(error: Error): void }>();
	private stopped: Error | undefined;
	private readonly _onDidStartFile = new Emitter<number>();
	/** The worker began testing the file with this id (match() calls are numbered from 0). */
	readonly onDidStartFile: Event<number> = this._onDidStartFile.event;

	constructor(pattern: string, flags: string, maxResults: number) {
		const setup: WorkerSetup = { pattern, flags, maxResults };
		this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: setup });
		this.worker.on('message', (message: FromWorker) => {
			if (message.type === 'start') {
				this._onDidStartFile.fire(message.id);
				return;
			}
			const waiter = this.waiting.get(message.id);
			this.waiting.delete(message.id);
			waiter?.resolve({ matches: message.matches, full: message.full });
		});
		this.worker.on('error', (error) => {
			this.fail(new RegexWorkerStopped(`The search worker failed: ${error.message}`));
		});
		this.worker.on('exit', (code) => {
			this.fail(new RegexWorkerStopped(`The search worker exited (code ${code}).`));
		});
	}

	/** How many files were handed over and are not answered yet. */
	get pending(): number {
		return this.waiting.size;
	}

	/** Tests `bytes` (a UTF-8 text file) line by line; rejects with RegexWorkerStopped once stopped. */
	match(bytes: Uint8Array): Promise<FileMatches> {
		if (this.stopped) {
			return Promise.reject(this.stopped);
		}
		const id = this.nextId++;
		return new Promise<FileMatches>((resolve, reject) => {
			this.waiting.set(id, { resolve, reject });
			// A view into a larger buffer (a pooled one) would clone all of it: send just the file.
			const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
			this.worker.postMessage({ id, bytes: whole ? bytes : bytes.slice() });
		});
	}

	/** Ends the worker, even in the middle of a regex; pending match() calls reject with `reason`. */
	async stop(reason = 'The search was stopped.'): Promise<void> {
		this.fail(new RegexWorkerStopped(reason));
		await this.worker.terminate();
	}

	private fail(error: Error): void {
		this.stopped ??= error;
		for (const waiter of this.waiting.values()) {
			waiter.reject(this.stopped);
		}
		this.waiting.clear();
		this._onDidStartFile.dispose();
	}
}
