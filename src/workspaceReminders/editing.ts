// What the editor offers in a reminder file: completion and hover, computed from the text and a
// position only (the language server turns them into LSP items). Where the cursor is decides what
// fits: a field name at the start of a frontmatter line (under `when:` when indented below it), a
// policy, mode or tool after its field, a placeholder after `{{` in the body.
import { PLACEHOLDER_DOCS, POLICY_VALUES, TOP_FIELDS, WHEN_FIELDS, type FieldDoc } from './fields';
import { LineIndex, frontmatterSpan } from './fileText';
import { REMINDER_PLACEHOLDERS, WORKSPACE_KEY_PREFIX, type FilePosition, type FileRange } from './spec';
import { isValidReminderKey } from '../reminders/envelope';
import type { ReminderVocabulary } from './vocabulary';

export type CompletionKind = 'field' | 'value' | 'placeholder';

export interface ReminderCompletion {
	readonly label: string;
	readonly kind: CompletionKind;
	/** The text that replaces `range` (the word typed so far). */
	readonly insertText: string;
	readonly range: FileRange;
	readonly detail?: string;
	/** Markdown. */
	readonly documentation?: string;
}

export interface ReminderHover {
	/** Markdown. */
	readonly contents: string;
	readonly range: FileRange;
}

type Where =
	| { readonly in: 'frontmatter'; readonly line: string; readonly lineNumber: number; readonly underWhen: boolean; readonly siblings: readonly string[] }
	| { readonly in: 'body' }
	| { readonly in: 'outside' };

const FIELD_LINE = /^(\s*)([A-Za-z_][\w-]*)\s*:/;

/** Where `position` is, and for a frontmatter line, which block it is in and which fields that block has already. */
function locate(lines: LineIndex, text: string, position: FilePosition): Where {
	const span = frontmatterSpan(text);
	if (span.kind === 'none' || position.line === 0) {
		return { in: 'outside' };
	}
	// An unclosed frontmatter runs to the end of the file (the person is still writing it).
	const lastLine = span.kind === 'closed' ? span.closeLine : lines.lineCount;
	if (position.line > lastLine) {
		return { in: 'body' };
	}
	if (position.line === lastLine) {
		return { in: 'outside' };
	}
	const lineOf = (line: number) => {
		const range = lines.lineRange(line);
		return text.slice(lines.offset(range.start), lines.offset(range.end));
	};
	const line = lineOf(position.line);
	const indented = /^\s/.test(line);
	let underWhen = false;
	if (indented) {
		for (let above = position.line - 1; above >= 1; above--) {
			const match = FIELD_LINE.exec(lineOf(above));
			if (match && match[1] === '') {
				underWhen = match[2] === 'when';
				break;
			}
		}
	}
	const siblings: string[] = [];
	for (let other = 1; other < lastLine; other++) {
		const match = other === position.line ? null : FIELD_LINE.exec(lineOf(other));
		if (match && (match[1] !== '') === indented) {
			siblings.push(match[2] ?? '');
		}
	}
	return { in: 'frontmatter', line, lineNumber: position.line, underWhen, siblings };
}

function fieldItem(field: FieldDoc, range: FileRange): ReminderCompletion {
	return { label: field.name, kind: 'field', insertText: `${field.name}: ${field.name === 'when' ? '\n  ' : (field.sample ?? '')}`, range, documentation: field.doc };
}

function valueItems(values: readonly string[], range: FileRange, detail: string): ReminderCompletion[] {
	return values.map((value) => ({ label: value, kind: 'value', insertText: value, range, detail }));
}

export interface CompletionContext {
	readonly vocabulary: ReminderVocabulary;
	/** The file's name without `.md`, offered for `key:` when it is a free, valid key. */
	readonly fileStem?: string;
}

/** The completions at `position` in `text`. */
export function completionsAt(text: string, position: FilePosition, context: CompletionContext): ReminderCompletion[] {
	const lines = new LineIndex(text);
	const where = locate(lines, text, position);
	const lineStart = lines.offset({ line: position.line, character: 0 });
	const cursor = lines.offset(position);
	const before = text.slice(lineStart, cursor);
	const replacing = (length: number): FileRange => ({ start: { line: position.line, character: position.character - length }, end: position });
	if (where.in === 'body') {
		const open = /\{\{\s*(\w*)$/.exec(before);
		if (!open) {
			return [];
		}
		const typed = open[1] ?? '';
		const closed = text.startsWith('}}', cursor);
		return REMINDER_PLACEHOLDERS.map((name) => ({ label: name, kind: 'placeholder', insertText: closed ? name : `${name}}}`, range: replacing(typed.length), documentation: PLACEHOLDER_DOCS[name] ?? '' }));
	}
	if (where.in !== 'frontmatter') {
		return [];
	}
	const naming = /^(\s*)([\w-]*)$/.exec(before);
	if (naming) {
		const fields = where.underWhen ? WHEN_FIELDS : naming[1] === '' ? TOP_FIELDS : [];
		return fields.filter((field) => !where.siblings.includes(field.name)).map((field) => fieldItem(field, replacing(naming[2]?.length ?? 0)));
	}
	const value = /^(\s*)([\w-]+):\s*(\S*)$/.exec(before);
	if (!value) {
		return [];
	}
	const [, indent = '', field = '', typed = ''] = value;
	const range = replacing(typed.length);
	if (indent === '' && field === 'policy') {
		return POLICY_VALUES.map((policy) => ({ label: policy.name, kind: 'value', insertText: policy.name, range, documentation: policy.doc }));
	}
	if (indent === '' && field === 'key') {
		const stem = context.fileStem;
		return stem !== undefined && isValidReminderKey(stem) && !context.vocabulary.reservedKeys.includes(WORKSPACE_KEY_PREFIX + stem) ? valueItems([stem], range, `on the wire: ${WORKSPACE_KEY_PREFIX}${stem}`) : [];
	}
	if (where.underWhen && field === 'mode') {
		return valueItems(context.vocabulary.modes, range, 'permission mode');
	}
	if (where.underWhen && field === 'tool') {
		return valueItems(context.vocabulary.tools, range, 'Aside tool');
	}
	return [];
}

/** The docs of the field name or placeholder under `position`. */
export function hoverAt(text: string, position: FilePosition): ReminderHover | undefined {
	const lines = new LineIndex(text);
	const where = locate(lines, text, position);
	const lineStart = lines.offset({ line: position.line, character: 0 });
	const lineText = text.slice(lineStart, lines.offset(lines.lineRange(position.line).end));
	const on = (start: number, end: number) => position.character >= start && position.character <= end;
	const span = (start: number, end: number): FileRange => ({
		start: { line: position.line, character: start },
		end: { line: position.line, character: end },
	});
	if (where.in === 'frontmatter') {
		const match = FIELD_LINE.exec(lineText);
		const indent = match?.[1] ?? '';
		const name = match?.[2] ?? '';
		if (!match || !on(indent.length, indent.length + name.length)) {
			return undefined;
		}
		const field = (indent === '' ? TOP_FIELDS : where.underWhen ? WHEN_FIELDS : []).find((candidate) => candidate.name === name);
		return field ? { contents: `**${where.underWhen && indent !== '' ? `when.${field.name}` : field.name}**: ${field.doc}`, range: span(indent.length, indent.length + name.length) } : undefined;
	}
	if (where.in === 'body') {
		for (const match of lineText.matchAll(/\{\{\s*(\w+)\s*\}\}/g)) {
			const name = match[1] ?? '';
			const doc = PLACEHOLDER_DOCS[name];
			if (doc !== undefined && on(match.index, match.index + match[0].length)) {
				return { contents: `**{{${name}}}**: ${doc}`, range: span(match.index, match.index + match[0].length) };
			}
		}
	}
	return undefined;
}
