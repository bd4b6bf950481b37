// Whether any installed extension serves a language: VS Code's execute*Provider commands answer
// "nothing" alike when no provider is registered and when one found nothing, so the LSP tool asks
// this instead for an empty answer. An extension serves a language when it has code (`main` or
// `browser`) and activates on it: `onLanguage:<id>`, or implicitly by contributing the language.
// Grammar-only extensions (most built-in languages) have no code; `plaintext` has none at all.
// Extensions activated on `*` or at startup are not counted: they could register a provider for
// any language, and the few built in (git, github) serve none.
import * as vscode from 'vscode';
import type { CodeLanguage } from '../tools/lsp/port';

interface LanguageContribution {
	readonly id?: unknown;
	readonly aliases?: unknown;
}

interface Manifest {
	readonly main?: unknown;
	readonly browser?: unknown;
	readonly activationEvents?: unknown;
	readonly contributes?: { readonly languages?: unknown };
}

function contributedLanguages(manifest: Manifest): readonly LanguageContribution[] {
	const languages = manifest.contributes?.languages;
	return Array.isArray(languages) ? (languages as LanguageContribution[]) : [];
}

/** The name the contributing extensions give language `id` (its first alias), else the id. */
function languageName(id: string): string {
	for (const extension of vscode.extensions.all) {
		for (const language of contributedLanguages(extension.packageJSON as Manifest)) {
			if (language.id === id && Array.isArray(language.aliases) && typeof language.aliases[0] === 'string') {
				return language.aliases[0];
			}
		}
	}
	return id;
}

/** The installed extensions with code that activate on language `id`. */
export function providersOf(id: string): readonly string[] {
	return vscode.extensions.all.flatMap((extension) => {
		const manifest = extension.packageJSON as Manifest;
		if (typeof manifest.main !== 'string' && typeof manifest.browser !== 'string') {
			return [];
		}
		const events = Array.isArray(manifest.activationEvents) ? manifest.activationEvents : [];
		const activates = events.includes(`onLanguage:${id}`) || contributedLanguages(manifest).some((language) => language.id === id);
		return activates ? [extension.id] : [];
	});
}

/** The language the editor opens the file as, and who serves it; undefined when it cannot be opened as text. */
export async function languageOf(uri: vscode.Uri): Promise<CodeLanguage | undefined> {
	try {
		const document = await vscode.workspace.openTextDocument(uri);
		return { id: document.languageId, name: languageName(document.languageId), providers: providersOf(document.languageId) };
	} catch {
		return undefined;
	}
}
