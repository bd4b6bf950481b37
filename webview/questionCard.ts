// One card of the model's questions (AskUserQuestion): each question a group of options — radio
// buttons, or checkboxes where several may apply — and "Other" with a text box for the person's own
// words. Keyboard first: arrows move between a question's options (and pick, for one-choice
// questions), Space picks, Tab moves to the next question (and into "Other"'s box once Other is
// chosen), Enter submits, Escape gives the focus back to the message box and leaves the card
// waiting. Every text in it is the model's and only goes in as text.
import type { ViewMessage } from '../src/protocol/messages';
import { MAX_OWN_WORDS_CHARS, type QuestionAnswerView, type QuestionCardView, type QuestionView } from '../src/protocol/questions';
import { el, icon, uniqueId } from './dom';

type CardMessage = Extract<ViewMessage, { type: 'questions.answer' | 'questions.skip' }>;

interface QuestionGroup {
	readonly element: HTMLElement;
	readonly inputs: readonly HTMLInputElement[];
	readonly other: HTMLInputElement;
	readonly otherText: HTMLInputElement;
	readonly problem: HTMLElement;
	/** The answer, or what is missing. */
	answer(): QuestionAnswerView | string;
}

/** The card's title. */
export function cardTitle(card: QuestionCardView): string {
	const what = card.questions.length === 1 ? 'a question' : `${card.questions.length} questions`;
	return card.reopened ? `The agent asked ${what} before this chat was closed` : `The agent asks ${what}`;
}

function questionGroup(question: QuestionView, index: number): QuestionGroup {
	const name = uniqueId('question');
	const type = question.multiSelect ? 'checkbox' : 'radio';
	const legendId = uniqueId('question-legend');
	const option = (label: string, description: string | null, value: string): { row: HTMLElement; input: HTMLInputElement } => {
		const input = el('input', { type, name, class: 'question-input', value });
		const row = el('label', { class: 'question-option' }, input, el('span', { class: 'question-option-text' }, el('span', { class: 'question-label' }, label), description ? el('span', { class: 'question-description' }, description) : null));
		return { row, input };
	};
	const options = question.options.map((entry) => option(entry.label, entry.description, entry.label));
	const other = option('Other', null, '');
	other.row.classList.add('question-other');
	const otherText = el('input', { type: 'text', class: 'question-other-text', maxlength: String(MAX_OWN_WORDS_CHARS), tabindex: '-1', placeholder: 'Your own answer', 'aria-label': `Your own answer to question ${index + 1}` });
	const problem = el('p', { class: 'question-problem', hidden: true });
	const inputs = [...options.map((entry) => entry.input), other.input];
	const element = el(
		'fieldset',
		{ class: 'question', 'aria-labelledby': legendId, 'data-question': String(index) },
		el('legend', { class: 'question-legend', id: legendId }, el('span', { class: 'question-header' }, question.header), el('span', { class: 'question-text' }, question.question)),
		el('div', { class: 'question-options', role: question.multiSelect ? 'group' : 'radiogroup', 'aria-labelledby': legendId }, ...options.map((entry) => entry.row), other.row, otherText),
		problem,
	);
	const sync = (): void => {
		otherText.tabIndex = other.input.checked ? 0 : -1;
	};
	for (const input of inputs) {
		input.addEventListener('change', sync);
	}
	// Typing one's own words chooses Other; emptying the box lets it go.
	otherText.addEventListener('input', () => {
		other.input.checked = otherText.value.trim() !== '';
		sync();
	});
	otherText.addEventListener('focus', () => {
		otherText.tabIndex = 0;
	});
	if (question.multiSelect) {
		// Checkboxes take one Tab stop per question, as radio buttons do; arrows move between them.
		const rove = (to: HTMLInputElement): void => {
			for (const input of inputs) {
				input.tabIndex = input === to ? 0 : -1;
			}
			to.focus();
		};
		inputs.forEach((input, position) => {
			input.tabIndex = position === 0 ? 0 : -1;
			input.addEventListener('focus', () => {
				rove(input);
			});
			input.addEventListener('keydown', (event) => {
				const step = event.key === 'ArrowDown' || event.key === 'ArrowRight' ? 1 : event.key === 'ArrowUp' || event.key === 'ArrowLeft' ? -1 : 0;
				if (step !== 0) {
					event.preventDefault();
					rove(inputs[(position + step + inputs.length) % inputs.length] as HTMLInputElement);
				}
			});
		});
	}
	return {
		element,
		inputs,
		other: other.input,
		otherText,
		problem,
		answer: () => {
			const picked = options.filter((entry) => entry.input.checked).map((entry) => entry.input.value);
			const own = other.input.checked ? otherText.value.trim() : '';
			if (other.input.checked && own === '') {
				return 'Write your answer in the box, or pick an option.';
			}
			if (picked.length === 0 && own === '') {
				return question.multiSelect ? 'Pick one or more options, or write your own answer.' : 'Pick an option, or write your own answer.';
			}
			return { picked, ...(own === '' ? {} : { other: own }) };
		},
	};
}

export class QuestionCard {
	readonly element: HTMLElement;
	private readonly groups: QuestionGroup[];
	private answered = false;

	constructor(
		readonly card: QuestionCardView,
		private readonly post: (message: CardMessage) => void,
		private readonly leave: () => void,
	) {
		const titleId = uniqueId('question-card-title');
		this.groups = card.questions.map(questionGroup);
		const submit = el('button', { type: 'button', class: 'button-primary question-submit' }, icon('check'), card.questions.length === 1 ? 'Submit answer' : 'Submit answers');
		const skip = el('button', { type: 'button', class: 'button-secondary question-skip', title: card.reopened ? 'Leave these questions unanswered' : 'Tell the agent you will not answer: it decides itself' }, icon('close'), card.reopened ? 'Dismiss' : 'Skip');
		submit.addEventListener('click', () => {
			this.submit();
		});
		skip.addEventListener('click', () => {
			this.finish({ type: 'questions.skip', id: card.id });
		});
		this.element = el(
			'section',
			{ class: `question-card${card.reopened ? ' question-card-reopened' : ''}`, role: 'region', 'aria-labelledby': titleId, 'data-card-id': card.id, tabindex: '-1' },
			el('div', { class: 'question-card-head' }, icon('question'), el('h2', { class: 'question-card-title', id: titleId }, cardTitle(card))),
			card.reopened ? el('p', { class: 'question-card-note' }, 'Its turn ended with the window. Your answers go as your next message.') : null,
			...this.groups.map((group) => group.element),
			el('div', { class: 'question-card-actions' }, submit, skip),
		);
		this.element.addEventListener('keydown', (event) => {
			if (event.key === 'Escape') {
				event.preventDefault();
				event.stopPropagation();
				this.leave();
			} else if (event.key === 'Enter' && event.target instanceof HTMLInputElement && !event.isComposing) {
				event.preventDefault();
				this.submit();
			}
		});
	}

	/** Focus on the first question's first option (a radio button is focused, not picked). */
	focusFirst(): void {
		const first = this.groups[0]?.inputs.find((input) => input.tabIndex >= 0) ?? this.groups[0]?.inputs[0];
		first?.focus();
	}

	private submit(): void {
		if (this.answered) {
			return;
		}
		const answers: QuestionAnswerView[] = [];
		let firstWrong: QuestionGroup | undefined;
		for (const group of this.groups) {
			const answer = group.answer();
			const wrong = typeof answer === 'string';
			group.problem.textContent = wrong ? answer : '';
			group.problem.hidden = !wrong;
			if (wrong) {
				group.element.setAttribute('aria-invalid', 'true');
			} else {
				group.element.removeAttribute('aria-invalid');
			}
			if (wrong) {
				firstWrong ??= group;
			} else {
				answers.push(answer);
			}
		}
		if (firstWrong) {
			const target = firstWrong.other.checked ? firstWrong.otherText : (firstWrong.inputs.find((input) => input.tabIndex >= 0) ?? firstWrong.inputs[0]);
			target?.focus();
			return;
		}
		this.finish({ type: 'questions.answer', id: this.card.id, answers });
	}

	private finish(message: CardMessage): void {
		if (this.answered) {
			return;
		}
		this.answered = true;
		this.post(message);
		// Answered: the host takes the card away. aria-disabled and read-only, so the focus stays where it is.
		for (const button of this.element.querySelectorAll('button')) {
			button.setAttribute('aria-disabled', 'true');
		}
		for (const group of this.groups) {
			group.otherText.readOnly = true;
			for (const input of group.inputs) {
				input.setAttribute('aria-disabled', 'true');
				input.addEventListener('click', (event) => {
					event.preventDefault();
				});
			}
		}
	}
}
