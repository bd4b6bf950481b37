// One `.aside/reminders/<name>.md`: its frontmatter read with positions kept (yaml's node ranges,
// offsets into the file, then LSP line/character, fileChecker.ts), every field checked (policy: and
// when: in firingFields.ts), the body checked the way the envelope will check it. Pure, never
// throws: the agent registers `spec` when there is one, the language server shows `problems` as
// the person types (docs/workspace-reminders.md).
import { isMap, parseDocument, type Node } from 'yaml';
import { findForgedMarker, isValidReminderKey } from '../reminders/envelope';
import { FileChecker, fieldName, scalarText } from './fileChecker';
import { TOP_FIELDS } from './fields';
import { LineIndex, frontmatterSpan } from './fileText';
import { checkPolicy, checkWhen } from './firingFields';
import { isPlaceholder, placeholdersIn } from './placeholders';
import { REMINDER_PLACEHOLDERS, WORKSPACE_KEY_PREFIX, type FileRange, type ParsedReminderFile, type WorkspaceReminderPolicy, type WorkspaceReminderSpec, type WorkspaceReminderWhen } from './spec';
import { BUILTIN_VOCABULARY, didYouMean, type ReminderVocabulary } from './vocabulary';

export interface AnalyzedReminderFile extends ParsedReminderFile {
	/** The key as written, when it is a valid one, and where (the folder's collisions, the code lens). */
	readonly keyField?: { readonly key: string; readonly range: FileRange };
}

/** yaml's message without its own position and excerpt: the range says where. */
function yamlMessage(message: string): string {
	const at = message.indexOf(' at line ');
	return (at >= 0 ? message.slice(0, at) : (message.split('\n', 1)[0] ?? message)).trim();
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
