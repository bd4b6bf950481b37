// The background processes' record kind: each start and each end of a chat's background process is
// one `process` record, so a reopened chat knows which were running when the window went (they
// ended with it: session.recovery names them once) and goes on numbering from the last (p4 after
// p3). Registered with the transcript by the feature list (feature.ts).
import * as z from 'zod';
import { declareRecord } from '../../base/recordDeclaration';
import { CHAT_STATE, type FeatureRecordKind } from '../../transcript/recordKinds';

export const ProcessRecord = z.object({
	kind: z.literal('process'),
	id: z.string().min(1),
	at: z.number(),
	/** The process's id in the chat, as the model knows it: `p1`. */
	process: z.string().regex(/^p\d+$/u),
	change: z.enum(['started', 'ended']),
	/** `started`: the command line as the model gave it. */
	command: z.string().optional(),
	/**
	 * `started`: the process whose session holds it and all it started (its terminal's shell, or the
	 * detached child), and that process's start as the OS counts it: a chat reopened after the
	 * window went ends what is still running of it (the same pid, started at the same time).
	 */
	leader: z.number().int().positive().optional(),
	leaderStart: z.string().optional(),
	/**
	 * `ended`: how — it exited, was stopped (RunStop, the person), passed the output bound, or was
	 * running when the window closed and went with it (`window`: recorded once the model was told).
	 */
	cause: z.enum(['exited', 'stopped', 'bound', 'window']).optional(),
	/** `ended`: the exit code as reported; absent when none was. */
	code: z.number().int().optional(),
});
export const PROCESS_RECORD = declareRecord(ProcessRecord);

export type ProcessRecord = z.infer<typeof ProcessRecord>;

declare module '../../transcript/records' {
	interface FeatureRecords {
		process: ProcessRecord;
	}
}

/** The chat's own bookkeeping: the reminders tell the model, the processes panel shows what runs. */
export const PROCESS_RECORD_KIND: FeatureRecordKind = { declaration: PROCESS_RECORD, traits: CHAT_STATE };

/** What a chat's `process` records say: the highest process number, and the processes started and never ended. */
export function foldProcessRecords(records: readonly { readonly kind: string }[]): { readonly last: number; readonly unended: readonly ProcessRecord[] } {
	let last = 0;
	const open = new Map<string, ProcessRecord>();
	for (const record of records) {
		if (record.kind !== 'process') {
			continue;
		}
		const entry = record as ProcessRecord;
		last = Math.max(last, Number(entry.process.slice(1)));
		if (entry.change === 'started') {
			open.set(entry.process, entry);
		} else {
			open.delete(entry.process);
		}
	}
	return { last, unended: [...open.values()] };
}
