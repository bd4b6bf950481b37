// `compact.file-references`: after a compaction, the files the summarized part had read (the
// successful results of a tool whose facts name the input field of the file it shows: Read) whose
// contents the kept history no longer holds — most recent first, with their current size and when
// they were last read — so the model re-reads a file before it relies on what the summary says of
// it. One entry per compaction: on the pending FIFO after a manual compaction, staged on the
// in-flight request after an automatic one (src/agent/compaction/).
import { entryOf } from '../declaration';
import type { StagedEntry } from '../definition';
import { sanitizeUntrusted } from '../envelope';
import type { AgentRecord } from '../../transcript/records';
import { formatBytes } from '../../tools/text';
import { builtinToolFacts } from '../../tools/toolFacts';
import { COMPACT_FILE_REFERENCES } from './catalog/context';

/** The most files listed; the rest are counted. */
export const MAX_FILE_REFERENCES = 30;
/** Past this size, the pointer says to read a line range rather than the whole file. */
const LARGE_FILE_BYTES = 100 * 1024;

export interface ReadFile {
	/** As the tools showed it. */
	readonly path: string;
	/** When it was last read (the result's time). */
	readonly at: number;
}

/** A file to list, with its size now: bytes, or null when it no longer exists (undefined: not known). */
export interface ReferencedFile extends ReadFile {
	readonly size: number | null | undefined;
}

/** The file a successful result of a tool that reads one file showed: its detail's path, else the input field its tool's facts name. */
function readPath(record: AgentRecord, inputs: ReadonlyMap<string, unknown>): string | undefined {
	if (record.kind !== 'tool-result' || record.isError) {
		return undefined;
	}
	const field = builtinToolFacts(record.name)?.readsFileNamedBy;
	if (field === undefined) {
		return undefined;
	}
	const detail = record.detail as { readonly kind?: unknown; readonly path?: unknown } | undefined;
	if (detail?.kind === 'file' && typeof detail.path === 'string' && detail.path !== '') {
		return detail.path;
	}
	const path = (inputs.get(record.callId) as Readonly<Record<string, unknown>> | undefined)?.[field];
	return typeof path === 'string' && path !== '' ? path : undefined;
}

function readsIn(records: readonly AgentRecord[]): Map<string, number> {
	const inputs = new Map<string, unknown>();
	const reads = new Map<string, number>();
	for (const record of records) {
		if (record.kind === 'assistant') {
			for (const call of record.toolCalls) {
				inputs.set(call.id, call.input);
			}
			continue;
		}
		const path = readPath(record, inputs);
		if (path !== undefined) {
			reads.delete(path);
			reads.set(path, record.at);
		}
	}
	return reads;
}

/** The files `summarized` read that `tail` does not read again, most recent first. */
export function filesReadBefore(summarized: readonly AgentRecord[], tail: readonly AgentRecord[]): ReadFile[] {
	const again = readsIn(tail);
	const files = [...readsIn(summarized)].filter(([path]) => !again.has(path)).map(([path, at]) => ({ path, at }));
	return files.reverse();
}

function line(file: ReferencedFile): string {
	const when = `last read ${new Date(file.at).toISOString()}`;
	if (file.size === null) {
		return `- ${sanitizeUntrusted(file.path)} (no longer exists; ${when})`;
	}
	const size = file.size === undefined ? '' : `${formatBytes(file.size)}; `;
	const large = file.size !== undefined && file.size > LARGE_FILE_BYTES ? '; large: Read it with offset and limit, the part you need' : '';
	return `- ${sanitizeUntrusted(file.path)} (${size}${when}${large})`;
}

/** The entry for these files (most recent first), or undefined when there are none. */
export function compactFileReferences(files: readonly ReferencedFile[]): StagedEntry | undefined {
	if (files.length === 0) {
		return undefined;
	}
	const shown = files.slice(0, MAX_FILE_REFERENCES);
	const omitted = files.length - shown.length;
	const lines = [
		'The chat was just compacted. Before it, you had read these files; their contents are no longer in your context, and the summary may not hold what you need of them. Read a file again before you rely on its contents or edit it.',
		'',
		...shown.map(line),
		...(omitted > 0 ? [`- … and ${omitted} more file${omitted === 1 ? '' : 's'} read earlier`] : []),
	];
	return { ...entryOf(COMPACT_FILE_REFERENCES), body: lines.join('\n'), reason: 'context was compacted' };
}
