// The fields that say when a workspace reminder fires: `policy:` (every, on-change, once,
// interval) and `when:` (read and edited globs, the mode, a tool), each value checked against what
// Aside uses, with a "did you mean" for a near miss. Apart from the file's other fields because
// these two carry their own small grammars.
import picomatch from 'picomatch';
import { isMap, isScalar, isSeq, type Node } from 'yaml';
import type { PermissionMode } from '../vocabulary/permissionModes';
import { fieldName, scalarText, type FileChecker } from './fileChecker';
import { WHEN_FIELDS } from './fields';
import type { FileRange, WorkspaceReminderPolicy, WorkspaceReminderWhen } from './spec';
import { didYouMean, type ReminderVocabulary } from './vocabulary';

const POLICY_NAMES = ['every', 'on-change', 'once', 'interval'];
const INTERVAL = /^interval\s*[:\s]\s*(\S+)$/;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** `policy:`'s value; undefined (with its problem) when it is none. */
export function checkPolicy(value: Node | null, check: FileChecker, where: FileRange): WorkspaceReminderPolicy | undefined {
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

/** `when:`'s conditions; undefined (with their problems) when one is wrong. */
export function checkWhen(value: Node | null, check: FileChecker, where: FileRange, vocabulary: ReminderVocabulary): WorkspaceReminderWhen | undefined {
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
