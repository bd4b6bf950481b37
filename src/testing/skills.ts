// Skills for specs: skill folders in memory (the SkillFolders port) and skills built directly.
import { join } from 'node:path';
import { Emitter } from '../base/event';
import type { Skill } from '../skills/skill';
import type { SkillFolder, SkillFolders } from '../skills/skillLibrary';

/** A SKILL.md's text from its fields and body. */
export function skillText(fields: Readonly<Record<string, string>>, body = 'Do it well.'): string {
	return `---\n${Object.entries(fields).map(([key, value]) => `${key}: ${value}`).join('\n')}\n---\n${body}\n`;
}

/** Skill folders over a map of absolute file paths to text; `changed()` says they may have changed. */
export class MemorySkillFolders implements SkillFolders {
	private readonly emitter = new Emitter<void>();
	readonly onDidChange = this.emitter.event;
	readonly files = new Map<string, string>();

	constructor(private readonly roots: readonly SkillFolder[]) {}

	folders(): readonly SkillFolder[] {
		return this.roots;
	}

	list(folder: string): readonly string[] {
		const names = new Set<string>();
		for (const path of this.files.keys()) {
			if (path.startsWith(`${folder}/`)) {
				const [name, ...rest] = path.slice(folder.length + 1).split('/');
				if (name !== undefined && rest.length > 0) {
					names.add(name);
				}
			}
		}
		return [...names];
	}

	read(path: string, maxBytes: number): Uint8Array | undefined {
		const text = this.files.get(path);
		return text === undefined ? undefined : Buffer.from(text, 'utf8').subarray(0, maxBytes);
	}

	/** Writes `<folder>/<name>/SKILL.md`. */
	write(folder: string, name: string, text: string): string {
		const path = join(folder, name, 'SKILL.md');
		this.files.set(path, text);
		return path;
	}

	changed(): void {
		this.emitter.fire();
	}
}

/** A skill as the library would give it. */
export function skill(
	name: string,
	options: {
		readonly body?: string;
		readonly requires?: readonly string[];
		readonly paths?: readonly string[];
		readonly hash?: string;
		readonly description?: string;
	} = {},
): Skill {
	return {
		name,
		description: options.description ?? `The ${name} skill.`,
		paths: options.paths ?? [],
		requires: options.requires ?? [],
		body: options.body ?? `How to ${name}.`,
		hash: options.hash ?? `h-${name}`,
		source: { path: `/ws/.aside/skills/${name}/SKILL.md`, scope: 'workspace' },
	};
}
