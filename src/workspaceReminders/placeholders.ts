// `{{files}}`, `{{date}}`, `{{mode}}` in a reminder's body: found for the diagnostics, expanded
// when the reminder fires. What a placeholder brings in (file paths) is outside text, so the
// expanded body is sanitised: a path cannot complete a `<system-reminder` marker the body began.
import { sanitizeUntrusted } from '../reminders/envelope';
import { REMINDER_PLACEHOLDERS, type ReminderPlaceholder } from './spec';

/** `{{ name }}`: spaces inside the braces allowed; a name is anything but braces. */
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

export interface PlaceholderUse {
	readonly name: string;
	/** Offsets of the whole `{{…}}` in the text searched. */
	readonly start: number;
	readonly end: number;
}

export function placeholdersIn(text: string): PlaceholderUse[] {
	return [...text.matchAll(PLACEHOLDER)].map((match) => ({ name: match[1] ?? '', start: match.index, end: match.index + match[0].length }));
}

export function isPlaceholder(name: string): name is ReminderPlaceholder {
	return (REMINDER_PLACEHOLDERS as readonly string[]).includes(name);
}

export interface PlaceholderValues {
	/** The workspace-relative paths that matched the trigger's globs (none for a roster reminder). */
	readonly files: readonly string[];
	/** `YYYY-MM-DD` (reminderDate gives it for a Date). */
	readonly date: string;
	readonly mode: string;
}

/** The body with its placeholders expanded; an unknown one (the parser reports it) is left as written. */
export function renderBody(body: string, values: PlaceholderValues): string {
	const expanded = body.replace(PLACEHOLDER, (whole, name: string) => {
		switch (name) {
			case 'files':
				return values.files.join(', ');
			case 'date':
				return values.date;
			case 'mode':
				return values.mode;
			default:
				return whole;
		}
	});
	return sanitizeUntrusted(expanded);
}

/** The local calendar date, `YYYY-MM-DD`, as `{{date}}` shows it. */
export function reminderDate(date: Date): string {
	const pad = (value: number) => String(value).padStart(2, '0');
	return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
