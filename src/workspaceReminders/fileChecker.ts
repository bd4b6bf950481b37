// The problems of one reminder file as it is checked, each with its range (yaml's node offsets
// counted from the frontmatter, turned into LSP line/character), and the readers of yaml nodes the
// field checks share. Apart from reminderFile.ts so the policy and trigger checks
// (firingFields.ts) report the same way.
import { isScalar, type Node, type Pair } from 'yaml';
import type { LineIndex } from './fileText';
import type { FileRange, ReminderFileProblem } from './spec';

export class FileChecker {
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
export function fieldName(pair: Pair): string | undefined {
	return isScalar(pair.key) && (typeof pair.key.value === 'string' || typeof pair.key.value === 'number') ? String(pair.key.value) : undefined;
}

/** A scalar's text, numbers included (`key: 2024` is the key "2024"); undefined for anything else. */
export function scalarText(node: unknown): string | undefined {
	if (!isScalar(node)) {
		return undefined;
	}
	return typeof node.value === 'string' || typeof node.value === 'number' ? String(node.value) : undefined;
}
