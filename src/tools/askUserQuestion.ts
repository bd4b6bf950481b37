// AskUserQuestion: the model asks the person one to four questions, each with two to four options
// (Claude Code's input shape), and waits for the card in the chat to be answered; the person may
// pick several options where a question allows it, and may always answer in their own words. It
// changes nothing, so it is a read tool (offered in every mode, Plan included, and never asks for
// approval), and only the root loop has it: a sub-agent cannot reach the person.
import * as z from 'zod';
import { ToolError } from './errors';
import { outcomeText, QUESTION_ACCESS } from './questionAccess';
import { type Tool, touchesNothing } from './tool';

export const MAX_QUESTIONS = 4;
export const MIN_OPTIONS = 2;
export const MAX_OPTIONS = 4;
export const MAX_QUESTION_CHARS = 1000;
export const MAX_HEADER_CHARS = 40;
export const MAX_LABEL_CHARS = 100;
export const MAX_DESCRIPTION_CHARS = 1000;

const option = z.object({
	label: z.string().trim().min(1).max(MAX_LABEL_CHARS).describe('What the user sees and picks: concise, 1–5 words.'),
	description: z.string().max(MAX_DESCRIPTION_CHARS).describe('What this option means or what happens if it is chosen: its trade-offs.'),
});

const question = z
	.object({
		question: z.string().trim().min(1).max(MAX_QUESTION_CHARS).describe('The whole question, ending with a question mark.'),
		header: z.string().trim().min(1).max(MAX_HEADER_CHARS).describe('A very short tag shown as a chip (at most 12 characters is best), e.g. "Database".'),
		options: z.array(option).min(MIN_OPTIONS).max(MAX_OPTIONS).describe(`${MIN_OPTIONS} to ${MAX_OPTIONS} options. Do not add an "Other" option: the user can always answer in their own words.`),
		multiSelect: z.boolean().optional().describe('true: the user may pick several options. Default false: one.'),
	})
	.superRefine((value, context) => {
		const seen = new Set<string>();
		for (const [index, { label }] of value.options.entries()) {
			if (seen.has(label)) {
				context.addIssue({ code: 'custom', path: ['options', index, 'label'], message: `"${label}" is given twice: each option's label must be unique within its question` });
			}
			seen.add(label);
		}
	});

const input = z
	.object({
		questions: z.array(question).min(1).max(MAX_QUESTIONS).describe(`1 to ${MAX_QUESTIONS} questions, shown together on one card.`),
	})
	.superRefine((value, context) => {
		const seen = new Set<string>();
		for (const [index, { question: text }] of value.questions.entries()) {
			if (seen.has(text)) {
				context.addIssue({ code: 'custom', path: ['questions', index, 'question'], message: 'the same question is asked twice: each question must be unique' });
			}
			seen.add(text);
		}
	});

export const askUserQuestionTool: Tool<z.infer<typeof input>> = {
	name: 'AskUserQuestion',
	description:
		'Asks the user questions and waits for their answers: use it when a choice is theirs to make (an approach, a trade-off, a preference, an unclear requirement) rather than guessing. ' +
		`1 to ${MAX_QUESTIONS} questions on one card, each with a short header, ${MIN_OPTIONS} to ${MAX_OPTIONS} options (label and description) and multiSelect when several may apply. ` +
		'The user can always answer in their own words instead of (or, with multiSelect, beside) the options, so do not add an "Other" option; put the option you recommend first and say so in its label ("(Recommended)"). ' +
		'The result gives each question with the labels the user picked and any words of their own. The user may also skip the questions; then decide yourself and say what you assumed. In plan mode, ask before you present the plan, not whether to approve it.',
	kind: 'read',
	input,
	touches: touchesNothing,
	async run({ questions }, context) {
		const access = context.features?.get(QUESTION_ACCESS);
		if (!access) {
			throw new ToolError('AskUserQuestion is not available here: only the main agent can ask the user (a sub-agent cannot reach them). Decide yourself, or return the question in your result.');
		}
		const asked = questions.map((entry) => ({ ...entry, multiSelect: entry.multiSelect === true }));
		const outcome = await access.ask(asked, context.signal);
		return { content: outcomeText(asked, outcome), ...(outcome.kind === 'cancelled' ? { isError: true } : {}) };
	},
};
