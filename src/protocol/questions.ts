// The question cards' part of the view protocol (src/features/questions/, webview/questions.ts): the
// current chat's questions waiting for the person (AskUserQuestion), sent whole on every change, and
// the person's answers, both ways `questions.*`. The unions in messages.ts take them as one line
// each. Every text in a card is the model's and only goes in as text.
import * as z from 'zod';
import { seq } from './sequence';

/** The most of the person's own words for one question. */
export const MAX_OWN_WORDS_CHARS = 4000;
const cardId = z.string().min(1).max(200);

export const QuestionOptionView = z.object({ label: z.string().max(200), description: z.string().max(2000) });

export const QuestionView = z.object({
	question: z.string().max(2000),
	header: z.string().max(100),
	options: z.array(QuestionOptionView).min(1).max(4),
	multiSelect: z.boolean(),
});
export type QuestionView = z.infer<typeof QuestionView>;

/** One card: the questions of one AskUserQuestion call. */
export const QuestionCardView = z.object({
	id: cardId,
	questions: z.array(QuestionView).min(1).max(4),
	/** Asked before the chat was closed: the call has no result any more, so the answers go as the person's next message. */
	reopened: z.boolean(),
});
export type QuestionCardView = z.infer<typeof QuestionCardView>;

/** One question's answer: the option labels picked, and the person's own words, if any. */
export const QuestionAnswerView = z.object({
	picked: z.array(z.string().max(200)).max(4),
	other: z.string().max(MAX_OWN_WORDS_CHARS).optional(),
});
export type QuestionAnswerView = z.infer<typeof QuestionAnswerView>;

export const QUESTIONS_HOST_MESSAGES = [
	/** The current chat's questions waiting for the person, oldest first: after `ready`, on every change and when another chat becomes current. */
	z.object({ type: z.literal('questions.changed'), seq, cards: z.array(QuestionCardView).max(20) }),
] as const;

export const QUESTIONS_VIEW_MESSAGES = [
	/** Submit on a card: one answer per question, in order. */
	z.object({ type: z.literal('questions.answer'), id: cardId, answers: z.array(QuestionAnswerView).min(1).max(4) }),
	/** Skip (a card of a running call) or Dismiss (a reopened one): the card goes unanswered. */
	z.object({ type: z.literal('questions.skip'), id: cardId }),
] as const;
