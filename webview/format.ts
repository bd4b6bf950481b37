// Small text helpers shared by the rows: pure, so rows stay short.

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

export function clockTime(at: number): { readonly text: string; readonly iso: string; readonly full: string } {
	const when = new Date(at);
	return { text: timeFormat.format(when), iso: when.toISOString(), full: when.toLocaleString() };
}

export function plural(count: number, one: string, many: string): string {
	return `${count} ${count === 1 ? one : many}`;
}

export function lineCount(text: string): number {
	return text === '' ? 0 : text.split('\n').length;
}

export function formatDuration(ms: number): string {
	if (ms < 1000) {
		return `${Math.round(ms)} ms`;
	}
	if (ms < 60_000) {
		return `${(ms / 1000).toFixed(1)} s`;
	}
	const seconds = Math.round(ms / 1000);
	return `${Math.floor(seconds / 60)} m ${seconds % 60} s`;
}

// The input fields that name what a tool call acts on, most telling first.
const TARGET_FIELDS = ['path', 'file_path', 'filePath', 'command', 'pattern', 'glob', 'query', 'url'];
const MAX_TARGET = 80;

/** What a tool call acts on, from its JSON input; '' when nothing fits (or it is not JSON). */
export function toolTarget(input: string): string {
	let parsed: unknown;
	try {
		parsed = JSON.parse(input);
	} catch {
		return '';
	}
	if (typeof parsed !== 'object' || parsed === null) {
		return '';
	}
	const fields = parsed as Record<string, unknown>;
	for (const field of TARGET_FIELDS) {
		const value = fields[field];
		if (typeof value === 'string' && value.trim() !== '') {
			const text = value.trim();
			const firstLine = text.split('\n', 1)[0] ?? '';
			if (firstLine.length > MAX_TARGET) {
				return `${firstLine.slice(0, MAX_TARGET - 1)}…`;
			}
			return firstLine.length < text.length ? `${firstLine} …` : firstLine;
		}
	}
	return '';
}
