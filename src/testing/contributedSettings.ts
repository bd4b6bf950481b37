// package.json's contributed settings, as the settings spec compares them with the zod schemas in
// src/vscode/settings.ts: each category with its properties, and a schema as VS Code declares it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';

export interface ContributedProperty {
	type?: string | string[];
	enum?: unknown[];
	minimum?: number;
	maximum?: number;
	default?: unknown;
	markdownDescription?: string;
	description?: string;
}

export interface Category {
	id: string;
	title: string;
	order: number;
	properties: Record<string, ContributedProperty & { order?: number }>;
}

const manifest = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { contributes: { configuration: Category[] } };
export const categories = manifest.contributes.configuration;
export const contributed = Object.assign({}, ...categories.map((category) => category.properties)) as Record<string, ContributedProperty>;

/** A zod schema as VS Code's settings declare it: a union's types as a list, its members' bounds. */
export function declared(schema: z.ZodType): ContributedProperty {
	const json = z.toJSONSchema(schema) as ContributedProperty & { anyOf?: ContributedProperty[] };
	if (!json.anyOf) {
		return json;
	}
	const members = json.anyOf;
	return {
		type: members.flatMap((member) => member.type ?? []),
		...Object.fromEntries((['minimum', 'maximum'] as const).flatMap((bound) => members.flatMap((member) => (member[bound] === undefined ? [] : [[bound, member[bound]]])))),
	};
}
