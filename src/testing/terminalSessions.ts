// Recorded terminal sessions (test/fixtures/terminal/) as the terminal text specs read them: the
// fixture's text, each command's output between VS Code's shell integration marks, and a cleaner fed
// in chunks of a given size.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TerminalText } from '../terminal/terminalText';

/** The recorded session `name` (`bash-integration.bin`) as text. */
export function recordedSession(name: string): string {
	return readFileSync(join('test', 'fixtures', 'terminal', name), 'utf8');
}

/** Each command's output as the shell integration API reads it: what comes between its C and D marks. */
export function commandOutputs(session: string): string[] {
	// eslint-disable-next-line no-control-regex -- the shell integration marks are escape sequences
	return [...session.matchAll(/\u001b\]633;C\u0007([^]*?)\u001b\]633;D/gu)].map((match) => match[1] ?? '');
}

/** The text fed to a TerminalText in pieces of `size` characters, cleaned. */
export function cleanedInChunks(text: string, size: number): string {
	const reader = new TerminalText();
	const lines: string[] = [];
	for (let i = 0; i < text.length; i += size) {
		lines.push(...reader.push(text.slice(i, i + size)));
	}
	return [...lines, ...reader.end()].join('\n');
}
