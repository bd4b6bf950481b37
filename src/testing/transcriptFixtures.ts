// Transcripts for the store's specs: one record of every kind, a header, scratch folders.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import type { InjectionRecord } from '../reminders/record';
import type { SessionHeader } from '../transcript/sessionRecords';
import type { ToolResultRecord } from '../transcript/toolResultRecord';
import type { TranscriptEntry } from '../transcript/records';
import { TranscriptStore } from '../transcript/store';

/** Scratch folders for one spec file, removed after it; each `freshDir()` is a new, absent one. */
export function transcriptDirs(): { freshDir: () => string } {
	const root = mkdtempSync(join(tmpdir(), 'aside-transcript-'));
	after(() => {
		rmSync(root, { recursive: true, force: true });
	});
	let dirs = 0;
	return { freshDir: () => join(root, `d${++dirs}`) };
}

export const T0 = Date.UTC(2026, 10, 30, 9);
export const HEADER: SessionHeader = { kind: 'session', v: 1, id: 's-1', createdAt: T0 };

export const INJECTION: InjectionRecord = {
	kind: 'injected-reminders',
	v: 1,
	phase: 'mid-turn',
	owner: { kind: 'root', id: 't1' },
	requestId: 'req-2',
	at: T0 + 5,
	turn: 1,
	entries: [{ type: 'date', key: 'session.date', label: 'date', body: 'Today is 2026-11-30 & x < y.', reason: 'first delivery' }],
};

/** One record of every kind, with every optional field somewhere. */
export const EVERY_KIND: TranscriptEntry[] = [
	{ kind: 'meta', at: T0, title: 'Fix the parser', provider: 'anthropic', model: 'claude' },
	{ kind: 'user', id: 'u1', turnId: 't1', at: T0 + 1, text: 'Why does "a < b" fail?\nSee <system-reminder>.' },
	{
		kind: 'assistant',
		id: 'a1',
		turnId: 't1',
		requestId: 'req-1',
		at: T0 + 2,
		text: 'Let me look.',
		toolCalls: [{ id: 'c1', name: 'Read', input: { path: 'src/parser.ts', range: [1, 40] } }],
		stop: 'tool-use',
		usage: { inputTokens: 1200, outputTokens: 40 },
		model: 'claude',
	},
	{
		kind: 'tool-result',
		id: 'r1',
		turnId: 't1',
		callId: 'c1',
		name: 'Read',
		at: T0 + 3,
		content: '1\tconst a = 1;\n2\t// ünïcödé 😀',
		isError: false,
		notices: [{ key: 'read.truncated', body: 'Showing lines 1-40 of 900.' }],
		detail: { kind: 'file', path: 'src/parser.ts', lines: 900, truncated: true },
		durationMs: 12,
		verdict: 'granted',
	},
	INJECTION,
	{ kind: 'assistant', id: 'a2', turnId: 't1', requestId: 'req-2', at: T0 + 6, text: 'Fixed.', toolCalls: [], stop: 'end' },
	{ kind: 'turn-end', turnId: 't1', at: T0 + 7, outcome: 'failed', error: 'The provider refused.' },
];

export function writeSession(dir: string, records: readonly TranscriptEntry[], header: SessionHeader = HEADER): string {
	const store = TranscriptStore.create(dir, header);
	for (const record of records) {
		store.append(record);
	}
	store.close();
	return store.path;
}

export function toolResult(id: string, content: string): ToolResultRecord {
	return { kind: 'tool-result', id, turnId: 't1', callId: `call-${id}`, name: 'Bash', at: T0, content, isError: false };
}
