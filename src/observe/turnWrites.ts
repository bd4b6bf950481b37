// The files Aside's tools wrote in the chat's latest turn that wrote any, as the calls' results
// reported them (ToolResult.touched, `written`): what the verification suggestion (edits.verify)
// counts. Turns are the session roster's (a user turn, with everything its loop and its agent
// invocations did); an older turn's writes are dropped as soon as a later turn writes. Nothing is
// read from disk and nothing else is counted: only the paths, classified once when noted.
import * as nodePath from 'node:path';
import { displayPath } from '../tools/paths';
import { isImplementationFile } from './implementationFiles';

interface Written {
	/** As the tools show it to the model. */
	readonly shown: string;
	readonly implementation: boolean;
}

export class TurnWrites {
	private turn: number | undefined;
	/** By absolute path, in the order first written (a file written twice counts once). */
	private readonly files = new Map<string, Written>();

	constructor(private readonly roots: () => readonly string[]) {}

	/** A call in session turn `turn` wrote `path` (absolute, confined). */
	note(turn: number, path: string): void {
		if (this.turn !== undefined && turn < this.turn) {
			return;
		}
		if (turn !== this.turn) {
			this.turn = turn;
			this.files.clear();
		}
		const absolute = nodePath.resolve(path);
		if (!this.files.has(absolute)) {
			const roots = this.roots();
			this.files.set(absolute, { shown: displayPath(absolute, roots), implementation: isImplementationFile(absolute, roots) });
		}
	}

	/** The implementation files written in session turn `turn`, as the model is shown them; none for any turn but the latest that wrote. */
	implementationFilesIn(turn: number): readonly string[] {
		if (turn !== this.turn) {
			return [];
		}
		return [...this.files.values()].filter((file) => file.implementation).map((file) => file.shown);
	}
}
