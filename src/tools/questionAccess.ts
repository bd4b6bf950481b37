// The chat's questions to the person as AskUserQuestion reaches them (the chat feature in
// src/features/questions/ grants them to the root loop under QUESTION_ACCESS), and the words the
// model is given back: each question with what the person chose and wrote, quoted, so a label or
// an answer that contains an arrow, a comma or a line break still reads one way.
import { featureAccessKey } from './featureAccess';

export interface QuestionOption {
	readonly label: string;
	readonly description: string;
}

/** One question as the model asked it (Claude Code's AskUserQuestion shape). */
export interface AskedQuestion {
	readonly question: string;
	/** A short tag shown as a chip ("Database"). */
	readonly header: string;
	readonly options: readonly QuestionOption[];
	readonly multiSelect: boolean;
}

/** The person's answer to one question: the labels they picked, and their own words ("Other"), if any. */
export interface QuestionAnswer {
	readonly picked: readonly string[];
	readonly other?: string;
}

export type QuestionOutcome =
	| { readonly kind: 'answered'; readonly answers: readonly QuestionAnswer[] }
	/** The person closed the card without answering (Skip). */
	| { readonly kind: 'skipped' }
	/** Stop, or the chat was left, before they answered. */
	| { readonly kind: 'cancelled' };

/** What AskUserQuestion reaches of the chat: one card, waited on until it is answered, skipped or the signal aborts. */
export interface QuestionAccess {
	ask(questions: readonly AskedQuestion[], signal: AbortSignal): Promise<QuestionOutcome>;
}

export const QUESTION_ACCESS = featureAccessKey<QuestionAccess>('questions');

/** Why `answers` do not answer `questions` (a label that is not an option, two picks for one-choice question, an unanswered one), or undefined. */
export function answersProblem(questions: readonly AskedQuestion[], answers: readonly QuestionAnswer[]): string | undefined {
	if (answers.length !== questions.length) {
		return `${answers.length} answers for ${questions.length} questions.`;
	}
	for (const [index, question] of questions.entries()) {
		const answer = answers[index] as QuestionAnswer;
		const other = answer.other?.trim() ?? '';
		const labels = new Set(question.options.map((option) => option.label));
		const unknown = answer.picked.find((label) => !labels.has(label));
		if (unknown !== undefined) {
			return `"${unknown}" is not an option of question ${index + 1}.`;
		}
		const count = new Set(answer.picked).size + (other === '' ? 0 : 1);
		if (count === 0) {
			return `Question ${index + 1} has no answer.`;
		}
		if (!question.multiSelect && count > 1) {
			return `Question ${index + 1} takes one answer.`;
		}
	}
	return undefined;
}

/** One line per question: `1. [Database] "Which database?" → "Postgres"`, the person's own words after `in their own words:`. */
export function answerLines(questions: readonly AskedQuestion[], answers: readonly QuestionAnswer[]): string[] {
	return questions.map((question, index) => {
		const answer = answers[index] ?? { picked: [] };
		const picked = question.options.filter((option) => answer.picked.includes(option.label)).map((option) => JSON.stringify(option.label));
		const other = answer.other?.trim() ?? '';
		const own = other === '' ? [] : [`in their own words: ${JSON.stringify(other)}`];
		const chosen = [...picked, ...own];
		return `${index + 1}. [${question.header}] ${JSON.stringify(question.question)} → ${chosen.length === 0 ? '(no answer)' : chosen.join(', ')}`;
	});
}

/** The tool result's text for what became of the card. */
export function outcomeText(questions: readonly AskedQuestion[], outcome: QuestionOutcome): string {
	switch (outcome.kind) {
		case 'answered':
			return [`The user answered your ${questions.length === 1 ? 'question' : 'questions'} (each answer is an option label you gave, or the user's own words):`, ...answerLines(questions, outcome.answers)].join('\n');
		case 'skipped':
			return 'The user closed the questions without answering. Go on with what you can decide yourself and say what you assumed, or ask again in plain words if you cannot.';
		case 'cancelled':
			return 'The questions were cancelled before the user answered (the turn was stopped).';
	}
}
