// The VS Code Language Model API as a ChatProvider: the logic is src/providers/languageModel.ts,
// written against the API's shape; here it gets the real classes, which are the `vscode` module.
import * as vscode from 'vscode';
import { LanguageModelProvider as LanguageModelChatProvider, type LanguageModelApi } from '../providers/languageModel';

const api: LanguageModelApi = vscode;

export class LanguageModelProvider extends LanguageModelChatProvider {
	constructor(model: vscode.LanguageModelChat) {
		super(model, api);
	}
}

/** The chat models VS Code offers now. */
export async function languageModels(): Promise<readonly vscode.LanguageModelChat[]> {
	return vscode.lm.selectChatModels();
}
