// One `.aside/reminders/<name>.md`: its frontmatter read with positions kept (yaml's node ranges,
// offsets into the file, then LSP line/character), every field checked, the body checked the way
// the envelope will check it. Pure, never throws: the agent registers `spec` when there is one,
// the language server shows `problems` as the person types (docs/workspace-reminders.md).
import picomatch from 'picomatch';
import { isMap, isScalar, isSeq, parseDocument, type Node, type Pair } from 'yaml';
import { findForgedMarker, isValidReminderKey } from '../reminders/envelope';
import { TOP_FIELDS, WHEN_FIELDS } from './fields';
import { LineIndex, frontmatterSpan } from './fileText';
import { isPlaceholder, placeholdersIn } from './placeholders';
import { REMINDER_PLACEHOLDERS, WORKSPACE_KEY_PREFIX, type FileRange, type ParsedReminderFile, type ReminderFileProblem, type WorkspaceReminderPolicy, type WorkspaceReminderSpec, type WorkspaceReminderWhen } from './spec';
import { BUILTIN_VOCABULARY, didYouMean, type ReminderVocabulary } from './vocabulary';
import type { PermissionMode } from '../agent/permissionMode';

export interface AnalyzedReminderFile extends ParsedReminderFile {
	/** The key as written, when it is a valid one, and where (the folder's collisions, the code lens). */
	readonly keyField?: { readonly key: string; readonly range: FileRange };
}

const POLICY_NAMES = ['every', 'on-change', 'once', 'interval'];
const INTERVAL = /^interval\s*[:\s]\s*(\S+)$/;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

class FileChecker {
	readonly problems: ReminderFileProblem[] = [];
	private offsetBase = 0;

	constructor(readonly lines: LineIndex) {}

	/** Offsets of yaml nodes count from the frontmatter's first character. */
	atYaml(base: number): void {
		this.offsetBase = base;
	}

	range(start: number, end: number): FileRange {
		return this.lines.range(start, end);
	}

	nodeRange(node: Node | null | undefined, fallback: FileRange): FileRange {
		const span = node?.range;
		return span ? this.lines.range(this.offsetBase + span[0], this.offsetBase + span[1]) : fallback;
	}

	error(code: string, message: string, range: FileRange): void {
		this.problems.push({ severity: 'error', code, message, range });
	}

	warning(code: string, message: string, range: FileRange): void {
		this.problems.push({ severity: 'warning', code, message, range });
	}
}

/** The name of a pair's key, when it is a plain scalar. */
function fieldName(pair: Pair): string | undefined {
	return isScalar(pair.key) && (typeof pair.key.value === 'string' || typeof pair.key.value === 'number') ? String(pair.key.value) : undefined;
}

/** A scalar's text, numbers included (`key: 2024` is the key "2024"); undefined for anything else. */
function scalarText(node: unknown): string | undefined {
	if (!isScalar(node)) {
		return undefined;
	}
	return typeof node.value === 'string' || typeof node.value === 'number' ? String(node.value) : undefined;
}

/** yaml's message without its own position and excerpt: the range says where. */
function yamlMessage(message: string): string {
	const at = message.indexOf(' at line ');
	return (at >= 0 ? message.slice(0, at) : (message.split('\n', 1)[0] ?? message)).trim();
}

function checkPolicy(value: Node | null, check: FileChecker, where: FileRange): WorkspaceReminderPolicy | undefined {
	const range = check.nodeRange(value, where);
	const intervalOf = (raw: unknown): WorkspaceReminderPolicy | undefined => {
		const turns = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
		if (!Number.isInteger(turns) || turns < 1) {
			check.error('unknown-policy', `policy: the interval must be a whole number of turns, at least 1 (not ${JSON.stringify(raw)}).`, range);
			return undefined;
		}
		return { kind: 'interval', turns };
	};
	if (isMap(value)) {
		const [pair, ...rest] = value.items;
		if (pair && rest.length === 0 && fieldName(pair) === 'interval') {
			return intervalOf(isScalar(pair.value) ? pair.value.value : undefined);
		}
		check.error('unknown-policy', 'policy: write every, on-change, once, or interval with its number of turns ("interval: 5" or { interval: 5 }).', range);
		return undefined;
	}
	const text = scalarText(value)?.trim();
	if (text === undefined) {
		check.error('unknown-policy', 'policy: must be every, on-change, once or "interval: N".', range);
		return undefined;
	}
	switch (text) {
		case 'every':
		case 'on-change':
		case 'once':
			return { kind: text };
	}
	const interval = INTERVAL.exec(text);
	if (interval) {
		return intervalOf(interval[1]);
	}
	if (text === 'interval') {
		check.error('unknown-policy', 'policy: interval needs its number of turns: "interval: 5".', range);
		return undefined;
	}
	check.error('unknown-policy', `policy: "${text}" is not a policy; use every, on-change, once or "interval: N".${didYouMean(text, POLICY_NAMES)}`, range);
	return undefined;
}

/** Why a glob cannot match a workspace-relative path, or undefined when it is fine. */
function globProblem(glob: string): string | undefined {
	if (glob.trim() === '') {
		return 'is empty';
	}
	if (glob.startsWith('/') || glob.startsWith('\\') || /^[A-Za-z]:[\\/]/.test(glob) || glob.startsWith('~')) {
		return 'is absolute; globs are relative to the workspace folder (e.g. "src/**")';
	}
	if (glob.split(/[\\/]/).includes('..')) {
		return 'leaves the workspace folder with ".."';
	}
	try {
		picomatch.makeRe(glob.replace(/^\.\//, ''), { dot: true, strictBrackets: true, windows: false });
	} catch (error) {
		return `is not a valid glob: ${(error as Error).message}`;
	}
	return undefined;
}

function checkGlobs(field: string, value: Node | null, check: FileChecker, where: FileRange): string[] | undefined {
	const items = isSeq(value) ? value.items : [value];
	const globs: string[] = [];
	let ok = items.length > 0;
	if (!ok) {
		check.error('invalid-glob', `when.${field}: the list is empty; give at least one glob.`, check.nodeRange(value, where));
	}
	for (const item of items) {
		const range = check.nodeRange(item as Node | null, where);
		const glob = isScalar(item) && typeof item.value === 'string' ? item.value : undefined;
		if (glob === undefined) {
			check.error('wrong-type', `when.${field}: each entry must be a glob in quotes, like "src/**".`, range);
			ok = false;
			continue;
		}
		const problem = globProblem(glob);
		if (problem !== undefined) {
			check.error('invalid-glob', `when.${field}: "${glob}" ${problem}.`, range);
			ok = false;
			continue;
		}
		globs.push(glob.replace(/^\.\//, ''));
	}
	return ok ? globs : undefined;
}

function checkWhen(value: Node | null, check: FileChecker, where: FileRange, vocabulary: ReminderVocabulary): WorkspaceReminderWhen | undefined {
	if (!isMap(value) || value.items.length === 0) {
		check.error('wrong-type', 'when: must hold at least one of read, edited, mode, tool (or leave when out for a reminder considered at every WAIT).', check.nodeRange(value, where));
		return undefined;
	}
	const when: Mutable<WorkspaceReminderWhen> = {};
	let ok = true;
	for (const pair of value.items) {
		const name = fieldName(pair);
		const keyRange = check.nodeRange(pair.key as Node, where);
		const valueNode = pair.value as Node | null;
		const valueRange = check.nodeRange(valueNode, keyRange);
		switch (name) {
			case 'read':
			case 'edited': {
				const globs = checkGlobs(name, valueNode, check, keyRange);
				if (globs === undefined) {
					ok = false;
				} else {
					when[name] = globs;
				}
				break;
			}
			case 'mode': {
				const mode = scalarText(valueNode);
				if (mode === undefined || !vocabulary.modes.includes(mode)) {
					check.error('unknown-mode', `when.mode: ${mode === undefined ? 'must be a mode' : `"${mode}" is not a permission mode`}; use ${vocabulary.modes.join(', ')}.${mode === undefined ? '' : didYouMean(mode, vocabulary.modes)}`, valueRange);
					ok = false;
				} else {
					when.mode = mode as PermissionMode;
				}
				break;
			}
			case 'tool': {
				const tool = scalarText(valueNode);
				if (tool === undefined || !vocabulary.tools.includes(tool)) {
					check.error('unknown-tool', `when.tool: ${tool === undefined ? 'must be a tool name' : `Aside has no tool "${tool}"`}.${tool === undefined ? '' : didYouMean(tool, vocabulary.tools)}`, valueRange);
					ok = false;
				} else {
					when.tool = tool;
				}
				break;
			}
			default:
				check.error('unknown-field', `when: unknown condition "${name ?? '?'}"; a trigger has read, edited, mode and tool.${name === undefined ? '' : didYouMean(name, WHEN_FIELDS.map((field) => field.name))}`, keyRange);
				ok = false;
		}
	}
	return ok ? when : undefined;
}

function checkBody(text: string, bodyStart: number, closeLine: number, check: FileChecker): string | undefined {
	const body = text.slice(bodyStart);
	let ok = true;
	// The envelope's own check, at every place it would fire, so the person sees each one.
	for (let from = 0; ; ) {
		const found = findForgedMarker(body.slice(from));
		if (found === -1) {
			break;
		}
		const at = from + found;
		const length = body.startsWith('</', at) ? '</system-reminder>'.length : '<system-reminder'.length;
		check.error('reminder-marker', 'The body opens or closes a <system-reminder> block; Aside wraps the body itself and never sends one that holds a marker. Reword it (e.g. "system reminder").', check.range(bodyStart + at, bodyStart + at + length));
		ok = false;
		from = at + length;
	}
	for (const use of placeholdersIn(body)) {
		if (!isPlaceholder(use.name)) {
			check.error('unknown-placeholder', `The placeholder {{${use.name}}} does not exist; the body may use ${REMINDER_PLACEHOLDERS.map((name) => `{{${name}}}`).join(', ')}.${didYouMean(use.name, REMINDER_PLACEHOLDERS)}`, check.range(bodyStart + use.start, bodyStart + use.end));
			ok = false;
		}
	}
	const trimmed = body.trim();
	if (trimmed === '') {
		check.error('empty-body', 'The reminder has no body: write the text the model should get below the closing "---".', check.lines.lineRange(closeLine));
		return undefined;
	}
	return ok ? trimmed : undefined;
}

/** Parses and checks one reminder file against what Aside uses (`vocabulary`). Never throws. */
export function parseReminderFile(text: string, vocabulary: ReminderVocabulary = BUILTIN_VOCABULARY): AnalyzedReminderFile {
	const lines = new LineIndex(text);
	const check = new FileChecker(lines);
	const span = frontmatterSpan(text);
	if (span.kind === 'none') {
		check.error('no-frontmatter', 'A reminder file starts with a YAML frontmatter: a line "---", then key: (and policy:, when: …), then a closing "---", then the body.', lines.lineRange(0));
		return { problems: check.problems };
	}
	if (span.kind === 'unclosed') {
		check.error('unclosed-frontmatter', 'The frontmatter has no closing "---" line.', lines.lineRange(span.openLine));
		return { problems: check.problems };
	}
	const body = checkBody(text, span.bodyStart, span.closeLine, check);
	const frontmatterRange = lines.lineRange(0);
	const document = parseDocument(text.slice(span.yamlStart, span.yamlEnd), { uniqueKeys: true, prettyErrors: false });
	check.atYaml(span.yamlStart);
	if (document.errors.length > 0) {
		// An error at the end of the frontmatter (an unclosed list) is shown at the end of its last line, not on the fence.
		const last = Math.max(span.yamlStart, span.yamlEnd - 1);
		for (const error of document.errors) {
			const at = (offset: number) => Math.min(span.yamlStart + offset, last);
			check.error(error.code === 'DUPLICATE_KEY' ? 'duplicate-field' : 'yaml-syntax', `The frontmatter is not valid YAML: ${yamlMessage(error.message)}.`, lines.range(at(error.pos[0]), at(error.pos[1])));
		}
		return { problems: check.problems };
	}
	const contents = document.contents;
	if (contents !== null && !isMap(contents)) {
		check.error('wrong-type', 'The frontmatter must be fields (key: …, policy: …), not a single value or a list.', check.nodeRange(contents, frontmatterRange));
		return { problems: check.problems };
	}
	let key: string | undefined;
	let keyField: AnalyzedReminderFile['keyField'];
	let label: string | undefined;
	let policy: WorkspaceReminderPolicy | undefined = { kind: 'on-change' };
	let when: WorkspaceReminderWhen | undefined;
	let fieldsOk = true;
	for (const pair of contents?.items ?? []) {
		const name = fieldName(pair);
		const keyRange = check.nodeRange(pair.key, frontmatterRange);
		const value = pair.value as Node | null;
		const valueRange = check.nodeRange(value, keyRange);
		switch (name) {
			case 'key': {
				const written = scalarText(value);
				if (written === undefined || written === '') {
					check.error('invalid-key', 'key: must be a name like "migrations" ([A-Za-z0-9._-]+).', valueRange);
					fieldsOk = false;
				} else if (!isValidReminderKey(written)) {
					const bad = Array.from(written).find((char) => !/[A-Za-z0-9._-]/.test(char)) ?? '';
					check.error('invalid-key', `key: "${written}" has ${JSON.stringify(bad)}; a key may use only letters, digits, ".", "_" and "-".`, valueRange);
					fieldsOk = false;
				} else {
					keyField = { key: written, range: valueRange };
					const wire = WORKSPACE_KEY_PREFIX + written;
					if (vocabulary.reservedKeys.includes(wire)) {
						check.error('reserved-key', `key: "${written}" would go on the wire as "${wire}", a key Aside already uses; choose another.`, valueRange);
						fieldsOk = false;
					} else {
						key = written;
					}
				}
				break;
			}
			case 'label': {
				const written = scalarText(value)?.trim();
				if (written === undefined || written === '') {
					check.error('wrong-type', 'label: must be a short text (or leave it out: the key is shown).', valueRange);
					fieldsOk = false;
				} else {
					label = written;
				}
				break;
			}
			case 'policy':
				policy = checkPolicy(value, check, keyRange);
				break;
			case 'when':
				when = checkWhen(value, check, keyRange, vocabulary);
				fieldsOk &&= when !== undefined;
				break;
			default:
				check.error('unknown-field', `Unknown field "${name ?? '?'}"; a reminder file has ${TOP_FIELDS.map((field) => field.name).join(', ')}.${name === undefined ? '' : didYouMean(name, TOP_FIELDS.map((field) => field.name))}`, keyRange);
				fieldsOk = false;
		}
	}
	if (keyField === undefined && !check.problems.some((problem) => problem.code === 'invalid-key' || problem.code === 'reserved-key')) {
		check.error('missing-key', 'The frontmatter has no key: add one, like "key: migrations" (it goes on the wire as workspace.migrations).', frontmatterRange);
	}
	const hasError = check.problems.some((problem) => problem.severity === 'error');
	if (hasError || !fieldsOk || key === undefined || policy === undefined || body === undefined) {
		return keyField ? { problems: check.problems, keyField } : { problems: check.problems };
	}
	const spec: WorkspaceReminderSpec = when ? { key, label: label ?? key, policy, when, body } : { key, label: label ?? key, policy, body };
	return { spec, problems: check.problems, ...(keyField ? { keyField } : {}) };
}
