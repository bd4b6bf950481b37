// One SKILL.md: a YAML frontmatter with `name` and `description` (both required), `paths` (globs,
// optional) and `requires` (skill names, optional), then the body. The format of Claude Code's and
// Copilot's skills, so their folders are read as they are; other fields (`license`, `allowed-tools`,
// …) are ignored. Every problem names the file and the field; a file with a problem is skipped.
import { createHash } from 'node:crypto';
import { parseDocument } from 'yaml';
import * as z from 'zod';
import { oneLine } from '../agent/subagents/profileFile';
import { SKILL_NAME, type Skill, type SkillProblem, type SkillSource } from './skill';
import { listOf, splitFrontmatter } from '../base/frontmatter';

/** Bigger files are refused unread: a skill is instructions, a few pages at most. */
export const MAX_SKILL_BYTES = 64 * 1024;
const MAX_NAME_CHARS = 64;

/** `!$name` in a body: this skill needs that one, given before it. */
export const REQUIRE_IN_BODY = /(?<![\w$])!\$([a-z0-9][a-z0-9-]*)/g;

const Names = z.union([z.string(), z.array(z.string({ error: 'each entry must be text' }))], { error: 'must be a comma-separated list or a YAML list' });

const Frontmatter = z.looseObject({
	name: z
		.string({ error: (issue) => (issue.input === undefined ? 'is missing' : 'must be text') })
		.trim()
		.min(1, 'is empty')
		.max(MAX_NAME_CHARS, `is longer than ${MAX_NAME_CHARS} characters`)
		.regex(SKILL_NAME, 'may use only lowercase letters, digits and "-", and must start with a letter or digit'),
	description: z.string({ error: (issue) => (issue.input === undefined ? 'is missing' : 'must be text') }).refine((text) => text.trim() !== '', 'is empty'),
	paths: Names.nullish(),
	requires: Names.nullish(),
});

export type ParsedSkill = { readonly ok: true; readonly skill: Skill } | { readonly ok: false; readonly problems: readonly SkillProblem[] };

function decodeText(bytes: Uint8Array): string | undefined {
	if (bytes.includes(0)) {
		return undefined;
	}
	try {
		return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
	} catch {
		return undefined;
	}
}

/** Parses one SKILL.md from its bytes (MAX_SKILL_BYTES + 1 of them tell that it is too big). Never throws. */
export function parseSkillFile(bytes: Uint8Array, source: SkillSource): ParsedSkill {
	const fail = (...messages: string[]): ParsedSkill => ({ ok: false, problems: messages.map((message) => ({ path: source.path, message, severity: 'error' })) });
	if (bytes.length > MAX_SKILL_BYTES) {
		return fail(`the file is larger than ${MAX_SKILL_BYTES / 1024} KB`);
	}
	const text = decodeText(bytes);
	if (text === undefined) {
		return fail('the file is not UTF-8 text (it looks binary)');
	}
	const parts = splitFrontmatter(text);
	if ('error' in parts) {
		return fail(parts.error);
	}
	if (parts.yaml === undefined) {
		return fail('the file does not start with a YAML frontmatter (a line "---", name: and description:, and a closing "---")');
	}
	const document = parseDocument(parts.yaml, { prettyErrors: true, uniqueKeys: true });
	if (document.errors.length > 0) {
		// The frontmatter starts on the file's second line.
		return fail(...document.errors.map((error) => `the frontmatter is not valid YAML${error.linePos ? ` (line ${error.linePos[0].line + 1})` : ''}: ${(error.message.split('\n', 1)[0] ?? '').replace(/ at line \d+.*$/, '')}`));
	}
	let data: unknown;
	try {
		data = document.toJS({ maxAliasCount: 50 });
	} catch (error) {
		return fail(`the frontmatter cannot be read: ${(error as Error).message}`);
	}
	if (typeof data !== 'object' || data === null || Array.isArray(data)) {
		return fail('the frontmatter must be a set of fields (name: …, description: …)');
	}
	const checked = Frontmatter.safeParse(data);
	if (!checked.success) {
		return fail(...checked.error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.map(String).join('.') : 'frontmatter'}: ${issue.message}`));
	}
	const fields = checked.data;
	const body = parts.body.trim();
	if (body === '') {
		return fail('the skill has no body: write its instructions below the frontmatter');
	}
	const requires = fields.requires ? listOf(fields.requires) : [];
	const badRequire = requires.find((name) => !SKILL_NAME.test(name));
	if (badRequire !== undefined) {
		return fail(`requires: "${badRequire}" is not a skill name (lowercase letters, digits and "-")`);
	}
	for (const match of body.matchAll(REQUIRE_IN_BODY)) {
		const name = match[1] ?? '';
		if (!requires.includes(name)) {
			requires.push(name);
		}
	}
	const skill: Skill = {
		name: fields.name,
		description: oneLine(fields.description),
		paths: fields.paths ? listOf(fields.paths).map((glob) => glob.replace(/^\.\//, '')) : [],
		// A skill naming itself stays: the flattening refuses it as a cycle, so the person sees it.
		requires,
		body,
		hash: createHash('sha256').update(bytes).digest('hex').slice(0, 16),
		source,
	};
	return { ok: true, skill };
}
