// The questions' record kind: a card asked (with its questions) and how it ended, one `question`
// record each, so a chat reopened with a card unanswered shows it again (the window closed while
// the call waited: its result was never recorded). Registered with the transcript by the feature
// list (feature.ts). The answers themselves are in the call's result, or the person's message.
import * as z from 'zod';
import { declareRecord } from '../../base/recordDeclaration';
import { CHAT_STATE, type FeatureRecordKind } from '../../transcript/recordKinds';
import type { AskedQuestion } from '../../tools/questionAccess';

const QuestionSchema = z.object({
	question: z.string(),
	header: z.string(),
	options: z.array(z.object({ label: z.string(), description: z.string() })),
	multiSelect: z.boolean(),
});

export const QuestionRecord = z.object({
	kind: z.literal('question'),
	id: z.string().min(1),
	at: z.number(),
	/** The card: one AskUserQuestion call. */
	card: z.string().min(1),
	/**
	 * `asked` (with `questions`); then how it ended: `answered`, `skipped` (Skip, Dismiss), `cancelled`
	 * (Stop, the chat left), `superseded` (a reopened card the person wrote past).
	 */
	change: z.enum(['asked', 'answered', 'skipped', 'cancelled', 'superseded']),
	questions: z.array(QuestionSchema).optional(),
});
export const QUESTION_RECORD = declareRecord(QuestionRecord, (record) => (record.change === 'asked' && record.questions === undefined ? 'an asked question record has its questions' : undefined));

export type QuestionRecord = z.infer<typeof QuestionRecord>;

declare module '../../transcript/records' {
	interface FeatureRecords {
		question: QuestionRecord;
	}
}

/** The card shows the questions; the call's result or the person's message carries the answers. */
export const QUESTION_RECORD_KIND: FeatureRecordKind = { declaration: QUESTION_RECORD, traits: CHAT_STATE };

/** The cards a chat's records leave asked and never ended, oldest first. */
export function unansweredCards(records: readonly { readonly kind: string }[]): { readonly card: string; readonly questions: readonly AskedQuestion[] }[] {
	const open = new Map<string, readonly AskedQuestion[]>();
	for (const record of records) {
		if (record.kind !== 'question') {
			continue;
		}
		const entry = record as QuestionRecord;
		if (entry.change === 'asked') {
			open.set(entry.card, entry.questions ?? []);
		} else {
			open.delete(entry.card);
		}
	}
	return [...open].flatMap(([card, questions]) => (questions.length > 0 ? [{ card, questions }] : []));
}
