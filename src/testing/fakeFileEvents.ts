import { Emitter } from '../base/event';
import type { FileEvents } from '../observe/editedFiles';

/** FileEvents for tests: fire a change or a deletion by hand, as a watcher or a save would. */
export class FakeFileEvents implements FileEvents {
	private readonly changed = new Emitter<string>();
	private readonly deleted = new Emitter<string>();
	readonly onDidChange = this.changed.event;
	readonly onDidDelete = this.deleted.event;

	fireChange(...paths: string[]): void {
		for (const path of paths) {
			this.changed.fire(path);
		}
	}

	fireDelete(...paths: string[]): void {
		for (const path of paths) {
			this.deleted.fire(path);
		}
	}
}
