// A reopened chat (switched back to, or after a reload) gets back its stale-write guard and its
// edited-files cache from its records (recordedTexts.ts), so Edit does not refuse every file until
// it is read again. A file whose text now is what the agent last saw is seen and cached as such; one
// that changed while the chat was closed keeps what the agent saw, so Edit asks for a new Read and
// the next WAIT reports the change as files.edited. Files the records cannot vouch for stay unseen.
import { errorMessage } from '../base/errors';
import type { Logger } from '../base/log';
import { recordedTexts } from '../observe/recordedTexts';
import { decodeUtf8 } from '../tools/text';
import type { WorkspaceFs } from '../tools/tool';
import type { AgentRecord } from '../transcript/records';
import { shownBytes } from '../observe/shownBytes';
import type { SessionObservers } from './observers';

type Found =
	| { readonly path: string; readonly same: true; readonly text: string; readonly bytes: Uint8Array; readonly mtimeMs: number }
	| { readonly path: string; readonly same: false; readonly text: string; readonly bytes: Uint8Array };

const normalized = (text: string): string => text.replace(/\r\n?/g, '\n');

/** What the file holds now against what the records say the agent saw; undefined when it is no UTF-8 file now. */
async function compare(fs: WorkspaceFs, path: string, texts: readonly string[]): Promise<Found | undefined> {
	const stat = await fs.stat(path);
	if (stat?.type !== 'file') {
		return undefined;
	}
	const disk = await fs.readFile(path);
	const text = decodeUtf8(disk);
	if (text === undefined) {
		return undefined;
	}
	const now = normalized(text);
	if (texts.includes(now)) {
		return { path, same: true, text, bytes: disk, mtimeMs: stat.mtimeMs };
	}
	// Kept in the file's own line endings, so the report shows what changed, not every line.
	const recorded = texts.find((candidate) => candidate.endsWith('\n') === now.endsWith('\n')) ?? texts[0] ?? '';
	const styled = text.includes('\r\n') ? recorded.replace(/\n/g, '\r\n') : recorded;
	return { path, same: false, text: recorded, bytes: shownBytes(disk, styled) };
}

/** Rebuilds what the chat's root saw of each file from its records; returns how many files it restored. */
export async function rebuildSeenFiles(records: readonly AgentRecord[], observers: Pick<SessionObservers, 'seen' | 'edited'>, fs: WorkspaceFs, roots: readonly string[], log: Logger): Promise<number> {
	const found: Found[] = [];
	for (const [path, texts] of recordedTexts(records, roots)) {
		try {
			const file = await compare(fs, path, texts);
			if (file) {
				found.push(file);
			}
		} catch (error) {
			log.warn(`Aside: could not check ${path} for the reopened chat: ${errorMessage(error)}`);
		}
	}
	// Applied at once, after every read: a file the agent read or wrote meanwhile keeps what that told it.
	let restored = 0;
	for (const file of found) {
		if (observers.seen.compare(file.path, '') !== 'unseen' || observers.edited.cache.has(file.path)) {
			continue;
		}
		observers.seen.saw(file.path, file.text);
		if (file.same) {
			observers.edited.noteRead(file.path, file.bytes, file.mtimeMs);
		} else {
			observers.edited.noteReopened(file.path, file.bytes);
		}
		restored++;
	}
	return restored;
}
