// `skills.activated`: after a successful Read of a file whose workspace-relative path matches a
// skill's `paths` globs, that skill's body, as a turn event of the reader — once per context and
// content, exactly like path-scoped AGENTS.md (src/observe/instructionFiles.ts): acknowledged only
// in the event's commit (so a failed request gives it again), the chat's acknowledgements restored
// from its records' subjects on reopen and after a compaction (`restore`), an agent invocation's
// gone with it. A skill the chat was given by `$name` counts as given too.
import * as nodePath from 'node:path';
import picomatch from 'picomatch';
import { SKILL_ATTACHMENT, SKILLS_ACTIVATED } from '../reminders/builtin/catalog/skills';
import { entryOf } from '../reminders/declaration';
import type { Owner } from '../reminders/definition';
import { sanitizeUntrusted } from '../reminders/envelope';
import { deliveredSubjects, type RecordLike } from '../reminders/history';
import { AccumulatingKind, type Rendering, type TurnEvent } from '../reminders/turnEvents';
import { isInside } from '../tools/paths';
import type { Skill, Skills } from './skill';
import { skillSection, skillSubject } from './skillText';

interface Activated {
	readonly owner: Owner;
	readonly skill: Skill;
	/** The file read, as shown. */
	readonly read: string;
}

export class SkillActivations {
	// What the chat's root context holds, name → content hash; the same per running agent invocation.
	private readonly chat = new Map<string, string>();
	private readonly agents = new Map<string, Map<string, string>>();
	private readonly matchers = new WeakMap<Skill, (path: string) => boolean>();
	private readonly activated: AccumulatingKind<Activated>;

	constructor(
		private readonly skills: Pick<Skills, 'current'>,
		private readonly roots: () => readonly string[],
	) {
		this.activated = new AccumulatingKind<Activated>(entryOf(SKILLS_ACTIVATED), {
			identity: ({ skill }) => skill.name,
			render: (items) => this.render(items),
		});
	}

	/** After `owner` read `readPath` (a successful Read): the skills it newly activates. */
	afterRead(owner: Owner, readPath: string): TurnEvent | undefined {
		const path = nodePath.resolve(readPath);
		const root = this.roots()
			.map((candidate) => nodePath.resolve(candidate))
			.filter((candidate) => isInside(path, candidate))
			.sort((a, b) => a.length - b.length)[0];
		if (root === undefined || root === path) {
			return undefined;
		}
		const relative = nodePath.relative(root, path).split(nodePath.sep).join('/');
		const given = owner.kind === 'root' ? this.chat : this.agents.get(owner.id);
		const found = this.skills.current().filter((skill) => skill.paths.length > 0 && given?.get(skill.name) !== skill.hash && this.matcher(skill)(relative));
		return found.length > 0 ? this.activated.event(found.map((skill) => ({ owner, skill, read: relative }))) : undefined;
	}

	/** `owner` was given `skill` another way (attached by `$name`, on dispatch): a matching Read does not give it again. */
	given(owner: Owner, skill: Skill): void {
		this.givenTo(owner).set(skill.name, skill.hash);
	}

	forget(owner: Owner): void {
		if (owner.kind === 'agent') {
			this.agents.delete(owner.id);
		}
	}

	/** The chat's acknowledgements are what `records` delivered to its root context (activated, or attached by `$name`). */
	restore(records: Iterable<RecordLike>): void {
		this.chat.clear();
		const all = [...records];
		for (const type of [SKILL_ATTACHMENT.type, SKILLS_ACTIVATED.type]) {
			for (const subjects of deliveredSubjects(all, type)) {
				for (const { ref, hashes } of subjects) {
					const hash = hashes[0];
					if (hash !== undefined) {
						this.chat.set(ref, hash);
					}
				}
			}
		}
	}

	private givenTo(owner: Owner): Map<string, string> {
		if (owner.kind === 'root') {
			return this.chat;
		}
		let given = this.agents.get(owner.id);
		if (!given) {
			given = new Map();
			this.agents.set(owner.id, given);
		}
		return given;
	}

	private matcher(skill: Skill): (path: string) => boolean {
		let match = this.matchers.get(skill);
		if (!match) {
			const globs = skill.paths.map((glob) => picomatch(glob, { dot: true, windows: false }));
			match = (path) => globs.some((glob) => glob(path));
			this.matchers.set(skill, match);
		}
		return match;
	}

	private render(items: readonly Activated[]): Rendering {
		const roots = this.roots();
		return {
			reason: 'a file you read matches the paths of a skill not given yet',
			body: items.map(({ skill, read }) => skillSection(skill, roots, `activated because you read ${sanitizeUntrusted(read)}, which its paths cover`)).join('\n\n'),
			subjects: items.map(({ skill }) => skillSubject(skill)),
			commit: () => {
				for (const { owner, skill } of items) {
					this.given(owner, skill);
				}
			},
		};
	}
}
