// The questions' part of the view: the current chat's waiting cards (webview/questions.ts), sent
// whole as `questions.changed` when the webview connects, when a card comes or goes, and when
// another chat becomes current; and the person's Submit and Skip, taken to that chat's questions.
import { whileCurrent, type HasCurrent } from '../../base/current';
import { DisposableStore, type IDisposable } from '../../base/lifecycle';
import type { Logger } from '../../base/log';
import type { ChatSession } from '../../agent/session';
import type { ViewMessage } from '../../protocol/messages';
import type { QuestionCardView } from '../../protocol/questions';
import type { FeatureViewPart, FeatureViewPort } from '../../view/featureView';
import type { ChatQuestions, WaitingCard } from './chatQuestions';

const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A waiting card as the webview shows it (a hand-edited transcript may hold longer text than a call may). */
export function cardView(card: WaitingCard): QuestionCardView {
	return {
		id: card.id,
		reopened: card.reopened,
		questions: card.questions.slice(0, 4).map((question) => ({
			question: cut(question.question, 2000),
			header: cut(question.header, 100),
			multiSelect: question.multiSelect,
			options: question.options.slice(0, 4).map((option) => ({ label: option.label.slice(0, 200), description: cut(option.description, 2000) })),
		})),
	};
}

export class QuestionsPresenter implements FeatureViewPart, IDisposable {
	readonly id = 'questions';

	constructor(
		private readonly sessions: HasCurrent<ChatSession>,
		private readonly stateOf: (session: ChatSession) => ChatQuestions,
		private readonly log: Logger,
	) {}

	private cards(): QuestionCardView[] {
		return this.stateOf(this.sessions.current).waiting.slice(0, 20).map(cardView);
	}

	connect(view: FeatureViewPort): IDisposable {
		const store = new DisposableStore();
		let sent = '';
		const send = (): void => {
			const cards = this.cards();
			const json = JSON.stringify(cards);
			if (json !== sent) {
				sent = json;
				view.send({ type: 'questions.changed', cards });
			}
		};
		store.add(whileCurrent(this.sessions, (session) => {
			send();
			return this.stateOf(session).onDidChange(send);
		}));
		return store;
	}

	shown(view: FeatureViewPort): void {
		view.send({ type: 'questions.changed', cards: this.cards() });
	}

	receive(message: ViewMessage, view: FeatureViewPort): void {
		const state = this.stateOf(this.sessions.current);
		if (message.type === 'questions.skip') {
			state.skip(message.id);
			return;
		}
		if (message.type !== 'questions.answer') {
			return;
		}
		const answers = message.answers.map((answer) => ({ picked: answer.picked, ...(answer.other === undefined ? {} : { other: answer.other }) }));
		const problem = state.answer(message.id, answers);
		if (problem !== undefined) {
			this.log.info(`Aside: questions.answer for ${cut(message.id, 40)}: ${problem}`);
			view.notice('warning', problem);
		}
	}

	dispose(): void {
		// Nothing of its own: each connection's wiring goes with the connection.
	}
}
