// AskUserQuestion's contract: Claude Code's input shape checked with zod (1–4 questions, 2–4 options,
// unique labels and questions) with an error that names the field; the answers as text the model
// reads one way; a call without the chat's questions (a sub-agent's) refused; Stop ends the wait.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as z from 'zod';
import { grant } from './featureAccess';
import { askUserQuestionTool } from './askUserQuestion';
import { answersProblem, type AskedQuestion, QUESTION_ACCESS, type QuestionAccess, type QuestionOutcome } from './questionAccess';
import { invokeTool, toolSpecs, toolsFor } from './registry';
import { builtinToolFacts } from './toolFacts';
import type { ToolContext } from './tool';

const DATABASE = { question: 'Which database?', header: 'Database', options: [{ label: 'Postgres', description: 'Relational, what we run.' }, { label: 'SQLite', description: 'A file, no server.' }] };
const FEATURES = { question: 'Which features first?', header: 'Features', multiSelect: true, options: [{ label: 'Auth', description: 'Sign-in.' }, { label: 'Search', description: 'Full text.' }, { label: 'Export', description: 'CSV.' }] };

function context(access: QuestionAccess | undefined, signal = new AbortController().signal): ToolContext {
	return { roots: ['/ws'], signal, ...(access ? { features: grant(QUESTION_ACCESS, access) } : {}) } as unknown as ToolContext;
}

/** Answers every card with `answer`'s outcome, and keeps what it was asked. */
function answering(outcome: QuestionOutcome): QuestionAccess & { asked: (readonly AskedQuestion[])[] } {
	const asked: (readonly AskedQuestion[])[] = [];
	return { asked, ask: (questions) => { asked.push(questions); return Promise.resolve(outcome); } };
}

describe('AskUserQuestion', () => {
	it('shows the model Claude Code\'s shape: questions of question, header, options of label and description, multiSelect', () => {
		const [spec] = toolSpecs([askUserQuestionTool]);
		type Items = { properties: Record<string, { minItems?: number; maxItems?: number }>; required: string[] };
		const schema = spec?.inputSchema as { properties: { questions: { minItems: number; maxItems: number; items: Items } } };
		const { questions } = schema.properties;
		assert.deepEqual([questions.minItems, questions.maxItems], [1, 4]);
		assert.deepEqual(Object.keys(questions.items.properties), ['question', 'header', 'options', 'multiSelect']);
		assert.deepEqual(questions.items.required, ['question', 'header', 'options']);
		assert.deepEqual([questions.items.properties.options?.minItems, questions.items.properties.options?.maxItems], [2, 4]);
		assert.ok(z.toJSONSchema(askUserQuestionTool.input));
	});

	it('is a read tool: offered in every mode, Plan and an untrusted workspace included; never to a sub-agent', () => {
		assert.equal(askUserQuestionTool.kind, 'read');
		assert.equal('confirm' in askUserQuestionTool, false);
		for (const [mode, trusted] of [['plan', true], ['ask', true], ['agent', true], ['agent', false]] as const) {
			assert.ok(toolsFor(mode, trusted).includes(askUserQuestionTool), `${mode}, trusted ${trusted}`);
		}
		assert.equal(builtinToolFacts('AskUserQuestion')?.inProfiles, 'never');
	});

	it('refuses bad input with an error naming the field, and asks nothing', async () => {
		const access = answering({ kind: 'skipped' });
		const cases: [unknown, RegExp][] = [
			[{ questions: [] }, /questions: Too small: expected array to have >=1 items/],
			[{ questions: [DATABASE, FEATURES, { ...DATABASE, question: 'c?' }, { ...DATABASE, question: 'd?' }, { ...DATABASE, question: 'e?' }] }, /questions: Too big: expected array to have <=4 items/],
			[{ questions: [{ ...DATABASE, options: [DATABASE.options[0]] }] }, /questions\.0\.options: Too small/],
			[{ questions: [{ ...FEATURES, options: [...FEATURES.options, { label: 'A', description: '' }, { label: 'B', description: '' }] }] }, /questions\.0\.options: Too big/],
			[{ questions: [{ ...DATABASE, options: [DATABASE.options[0], DATABASE.options[0]] }] }, /questions\.0\.options\.1\.label: "Postgres" is given twice/],
			[{ questions: [DATABASE, DATABASE] }, /questions\.1\.question: the same question is asked twice/],
			[{ questions: [{ ...DATABASE, header: '  ' }] }, /questions\.0\.header: Too small/],
			[{ questions: [{ ...DATABASE, options: [{ label: 'Postgres' }, DATABASE.options[1]] }] }, /questions\.0\.options\.0\.description/],
			[{ questions: [{ ...DATABASE, multiSelect: 'yes' }] }, /questions\.0\.multiSelect/],
		];
		for (const [input, expected] of cases) {
			const result = await invokeTool(askUserQuestionTool, input, context(access));
			assert.equal(result.isError, true);
			assert.match(result.content, /^Invalid input for AskUserQuestion: /);
			assert.match(result.content, expected);
		}
		assert.equal(access.asked.length, 0);
	});

	it('gives the model each question with the labels picked and the person\'s own words, quoted', async () => {
		const access = answering({ kind: 'answered', answers: [{ picked: ['Postgres'] }, { picked: ['Search', 'Auth'], other: 'billing → later, "maybe"\nnext week' }] });
		const result = await invokeTool(askUserQuestionTool, { questions: [DATABASE, FEATURES] }, context(access));
		assert.equal(result.isError, undefined);
		assert.equal(
			result.content,
			[
				'The user answered your questions (each answer is an option label you gave, or the user\'s own words):',
				'1. [Database] "Which database?" → "Postgres"',
				'2. [Features] "Which features first?" → "Auth", "Search", in their own words: "billing → later, \\"maybe\\"\\nnext week"',
			].join('\n'),
		);
		assert.deepEqual(access.asked[0]?.map((asked) => asked.multiSelect), [false, true], 'multiSelect defaults to false');
	});

	it('says when the person skipped; refuses a call that cannot reach the person (a sub-agent\'s)', async () => {
		const skipped = await invokeTool(askUserQuestionTool, { questions: [DATABASE] }, context(answering({ kind: 'skipped' })));
		assert.match(skipped.content, /^The user closed the questions without answering\./);
		const alone = await invokeTool(askUserQuestionTool, { questions: [DATABASE] }, context(undefined));
		assert.equal(alone.isError, true);
		assert.match(alone.content, /^AskUserQuestion is not available here: only the main agent can ask the user/);
	});

	it('Stop ends the wait: the call answers that it was cancelled', async () => {
		const controller = new AbortController();
		let signalled: AbortSignal | undefined;
		const waiting: QuestionAccess = { ask: (_questions, signal) => { signalled = signal; return new Promise(() => undefined); } };
		const running = invokeTool(askUserQuestionTool, { questions: [DATABASE] }, context(waiting, controller.signal));
		await Promise.resolve();
		controller.abort();
		const result = await running;
		assert.equal(signalled, controller.signal, 'the card waits on the call\'s signal');
		assert.deepEqual(result, { isError: true, content: 'AskUserQuestion was cancelled before it finished.' });
	});
});

describe('answersProblem', () => {
	const questions: AskedQuestion[] = [{ ...DATABASE, multiSelect: false }, { ...FEATURES, multiSelect: true }];
	it('takes one answer per question: an option or own words, several only where allowed', () => {
		assert.equal(answersProblem(questions, [{ picked: ['SQLite'] }, { picked: [], other: 'reports' }]), undefined);
		assert.equal(answersProblem(questions, [{ picked: [], other: 'MariaDB' }, { picked: ['Auth', 'Export'], other: 'x' }]), undefined);
		assert.equal(answersProblem(questions, [{ picked: ['SQLite'] }]), '1 answers for 2 questions.');
		assert.equal(answersProblem(questions, [{ picked: ['Oracle'] }, { picked: ['Auth'] }]), '"Oracle" is not an option of question 1.');
		assert.equal(answersProblem(questions, [{ picked: ['SQLite', 'Postgres'] }, { picked: ['Auth'] }]), 'Question 1 takes one answer.');
		assert.equal(answersProblem(questions, [{ picked: ['SQLite'], other: 'or both' }, { picked: ['Auth'] }]), 'Question 1 takes one answer.');
		assert.equal(answersProblem(questions, [{ picked: ['SQLite'] }, { picked: [], other: '  ' }]), 'Question 2 has no answer.');
	});
});
