// Questions to the person (docs/tools.md, "AskUserQuestion"): the model asks with AskUserQuestion,
// the chat shows a card above the composer, and the answers are the call's result. Each chat's
// waiting cards, their records (a card unanswered when the window closed is shown again), the
// tool's access to them (the root loop only) and the cards' view part.
import type { AgentFeature } from '../../agent/chatFeature';
import type { ChatFeature } from '../feature';
import { ChatQuestions } from './chatQuestions';
import { QUESTION_RECORD_KIND } from './questionRecord';
import { QuestionsPresenter } from './questionsPresenter';

export const QUESTIONS_STATE: AgentFeature<ChatQuestions> = {
	id: 'questions',
	open: (chat) => new ChatQuestions(chat),
};

export const QUESTIONS: ChatFeature = {
	id: 'questions',
	records: [QUESTION_RECORD_KIND],
	agent: QUESTIONS_STATE,
	view: (window) => new QuestionsPresenter(window.sessions, (session) => window.features.stateOf(QUESTIONS_STATE, session), window.log),
};
