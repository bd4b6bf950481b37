// Hooks as the specs run them: real node scripts in a temporary folder, configured as the person
// would in `aside.hooks`, so every hook spec exercises real child processes the same way.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseHooks } from '../hooks/config';
import { ConfiguredHooks } from '../hooks/toolHooks';
import { RecordingLogger } from './recordingLogger';

export class HookScripts {
	/** Where the scripts are written; also the folder the hooks run in. */
	readonly dir = mkdtempSync(join(tmpdir(), 'aside-hooks-'));

	/** The command line that runs `source` as the node script `<name>.js`. */
	command(name: string, source: string): string {
		const file = join(this.dir, `${name}.js`);
		writeFileSync(file, source);
		return `${JSON.stringify(process.execPath)} ${JSON.stringify(file)}`;
	}

	/** The same, as an entry of a matcher group's `hooks`. */
	entry(name: string, source: string): { type: 'command'; command: string } {
		return { type: 'command', command: this.command(name, source) };
	}

	/**
	 * The chat's hooks for an `aside.hooks` value (which must parse without problems), run in `folder`
	 * (the scripts' own unless given), and what they say in the chat.
	 */
	hooks(value: unknown, folder = this.dir): { hooks: ConfiguredHooks; notices: string[] } {
		const notices: string[] = [];
		const parsed = parseHooks(value, { kind: 'user', where: 'the setting aside.hooks' });
		assert.deepEqual(parsed.problems, []);
		const hooks = new ConfiguredHooks({ groups: () => Promise.resolve(parsed.groups), folder: () => folder, sessionId: () => 's1', notify: (text) => notices.push(text), log: new RecordingLogger() });
		return { hooks, notices };
	}

	dispose(): void {
		rmSync(this.dir, { recursive: true, force: true });
	}
}
