// A unified diff as coloured lines. Only the first character of each line is looked at; the
// text itself goes in as text.
import { el } from './dom';

function lineKind(line: string): string {
	if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('\\') || line.startsWith('diff ') || line.startsWith('index ')) {
		return 'meta';
	}
	if (line.startsWith('@@')) {
		return 'hunk';
	}
	if (line.startsWith('+')) {
		return 'add';
	}
	if (line.startsWith('-')) {
		return 'del';
	}
	return 'context';
}

export function diffView(diff: string, label = 'Diff'): HTMLPreElement {
	const lines = diff.endsWith('\n') ? diff.slice(0, -1).split('\n') : diff.split('\n');
	const pre = el('pre', { class: 'diff', tabindex: '0', 'aria-label': label });
	lines.forEach((line, index) => {
		// The newline stays in the text so copying a diff gives the diff back.
		pre.append(el('span', { class: `diff-line diff-${lineKind(line)}` }, index < lines.length - 1 ? `${line}\n` : line));
	});
	return pre;
}
