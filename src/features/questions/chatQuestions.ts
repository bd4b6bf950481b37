// One chat's questions to the person (docs/tools.md, "AskUserQuestion"): the cards waiting for an
// answer, oldest first. A card of a running call is answered, skipped, or cancelled by Stop (the
// call's signal): its promise always ends. A card the chat's records leave asked and never ended
// (the window closed while the call waited) is shown again when the chat is reopened; its call has
// no result any more (replay gives it the interrupted result), so its answers go as the person's
// next message, which starts a turn. A message the person writes instead leaves it behind.
import type { BetweenTurns } from '../../agent/betweenTurns';
import type { FeatureChat, FeatureState } from '../../agent/chatFeature';
import { Emitter, type Event } from '../../base/event';
import type { IDisposable } from '../../base/lifecycle';
import { errorMessage } from '../../base/errors';
import { anyOf, type FeatureAccess, grant } from '../../tools/featureAccess';
import { answerLines, answersProblem, type AskedQuestion, QUESTION_ACCESS, type QuestionAccess, type QuestionAnswer, type QuestionOutcome } from '../../tools/questionAccess';
import { ROOT_OWNER_PATH } from '../../vocabulary/tasks';
import { type QuestionRecord, unansweredCards } from './questionRecord';

/** A card waiting for the person. */
export interface WaitingCard {
	readonly id: string;
	readonly questions: readonly AskedQuestion[];
	/** Asked before the chat was closed: answering it sends the answers as the person's next message. */
	readonly reopened: boolean;
}

interface Waiting extends WaitingCard {
	/** Ends the call's wait (a reopened card has no call). */
	readonly settle: (outcome: QuestionOutcome) => void;
}

type Ending = Exclude<QuestionRecord['change'], 'asked'>;

/** The person's message that carries the answers to a reopened card. */
export function reopenedAnswerText(questions: readonly AskedQuestion[], answers: readonly QuestionAnswer[]): string {
	return [`My answers to the ${questions.length === 1 ? 'question' : 'questions'} you asked before this chat was closed:`, ...answerLines(questions, answers)].join('\n');
}

export type QuestionsChat = Pick<FeatureChat, 'session' | 'clock' | 'newId' | 'log'> & { readonly between?: Pick<BetweenTurns, 'refusal' | 'startTurn'> };

export class ChatQuestions implements FeatureState, QuestionAccess {
	private readonly cards: Waiting[] = [];
	private readonly _onDidChange = new Emitter<void>();
	/** A card came or went. */
	readonly onDidChange: Event<void> = this._onDidChange.event;
	private readonly listener: IDisposable;

	constructor(private readonly chat: QuestionsChat) {
		const { session } = chat;
		// A chat another window has open asks there, and is answered there.
		if (session.access === undefined) {
			for (const { card, questions } of unansweredCards(session.allRecords)) {
				this.cards.push({ id: card, questions, reopened: true, settle: () => undefined });
			}
		}
		// The person wrote (or Aside started a turn) past a reopened card: it is behind them.
		this.listener = session.onDidAppend((record) => {
			if (record.kind === 'user' && record.agent === undefined) {
				for (const card of this.cards.filter((waiting) => waiting.reopened)) {
					this.end(card.id, 'superseded', { kind: 'cancelled' });
				}
			}
		});
	}

	/** The cards waiting, oldest first. */
	get waiting(): readonly WaitingCard[] {
		return this.cards.map(({ id, questions, reopened }) => ({ id, questions, reopened }));
	}

	ask(questions: readonly AskedQuestion[], signal: AbortSignal): Promise<QuestionOutcome> {
		if (signal.aborted) {
			return Promise.resolve({ kind: 'cancelled' });
		}
		const id = this.chat.newId();
		this.record(id, 'asked', questions);
		return new Promise((resolve) => {
			const aborted = (): void => {
				this.end(id, 'cancelled', { kind: 'cancelled' });
			};
			signal.addEventListener('abort', aborted, { once: true });
			this.cards.push({
				id,
				questions,
				reopened: false,
				settle: (outcome) => {
					signal.removeEventListener('abort', aborted);
					resolve(outcome);
				},
			});
			this._onDidChange.fire();
		});
	}

	/** Submit on card `id`: why it was not taken (then nothing changed), or undefined. */
	answer(id: string, answers: readonly QuestionAnswer[]): string | undefined {
		const card = this.cards.find((waiting) => waiting.id === id);
		if (!card) {
			return 'These questions are no longer waiting for an answer.';
		}
		const problem = answersProblem(card.questions, answers);
		if (problem !== undefined) {
			return `The answers were not taken: ${problem}`;
		}
		if (!card.reopened) {
			this.end(id, 'answered', { kind: 'answered', answers });
			return undefined;
		}
		const { between } = this.chat;
		const refused = between ? between.refusal('answering these questions') : 'These questions cannot be answered here.';
		if (refused !== undefined) {
			return refused;
		}
		this.end(id, 'answered', { kind: 'cancelled' });
		between?.startTurn(reopenedAnswerText(card.questions, answers));
		return undefined;
	}

	/** Skip (Dismiss on a reopened card): the card goes unanswered. */
	skip(id: string): void {
		this.end(id, 'skipped', { kind: 'skipped' });
	}

	private end(id: string, change: Ending, outcome: QuestionOutcome): void {
		const index = this.cards.findIndex((waiting) => waiting.id === id);
		const card = this.cards[index];
		if (!card) {
			return;
		}
		this.cards.splice(index, 1);
		this.record(id, change);
		card.settle(outcome);
		this._onDidChange.fire();
	}

	private record(card: string, change: QuestionRecord['change'], questions?: readonly AskedQuestion[]): void {
		const { session, clock, newId, log } = this.chat;
		if (session.closed) {
			// Another chat was opened in its place: its records stay as they were (reopened, it shows the card again).
			return;
		}
		try {
			session.append({ kind: 'question', id: newId(), at: clock.now(), card, change, ...(questions ? { questions: questions.map((question) => ({ ...question, options: question.options.map((option) => ({ ...option })) })) } : {}) });
		} catch (error) {
			log.warn(`Aside: could not record a question card (${change}) of chat ${session.id}: ${errorMessage(error)}`);
		}
	}

	toolAccess(owner: string): FeatureAccess {
		return owner === ROOT_OWNER_PATH ? grant(QUESTION_ACCESS, this) : anyOf([]);
	}

	/** The chat goes: a call still waiting ends (its turn was stopped with it). */
	dispose(): void {
		this.listener.dispose();
		for (const card of this.cards.splice(0)) {
			card.settle({ kind: 'cancelled' });
		}
		this._onDidChange.dispose();
	}
}
