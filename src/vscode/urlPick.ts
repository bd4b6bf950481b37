// A quick pick of base URLs that also takes one typed into its box: the common ones are listed,
// and whatever the person types that is an http(s) URL becomes the first item.
import * as vscode from 'vscode';

export interface UrlItem extends vscode.QuickPickItem {
	readonly url: string;
}

/** `undefined` when the person cancelled. */
export function pickUrl(options: { readonly title: string; readonly placeholder: string; readonly items: readonly UrlItem[] }): Promise<string | undefined> {
	const pick = vscode.window.createQuickPick<UrlItem>();
	pick.title = options.title;
	pick.placeholder = options.placeholder;
	pick.matchOnDescription = true;
	pick.ignoreFocusOut = true;
	pick.items = options.items;
	const typedItem = (value: string): UrlItem[] => {
		const text = value.trim();
		if (text === '' || options.items.some((item) => item.url === text)) {
			return [];
		}
		const valid = /^https?:\/\/\S+$/.test(text) && URL.canParse(text);
		// alwaysShow: the typed text is the item, so the filter must not hide it.
		return valid ? [{ label: text, description: 'the URL you typed', url: text, alwaysShow: true }] : [];
	};
	return new Promise((resolve) => {
		let chosen: string | undefined;
		pick.onDidChangeValue((value) => {
			pick.items = [...typedItem(value), ...options.items];
		});
		pick.onDidAccept(() => {
			const [item] = pick.selectedItems;
			if (item) {
				chosen = item.url;
				pick.hide();
			} else if (pick.value.trim() !== '') {
				pick.placeholder = `"${pick.value.trim()}" is not an http:// or https:// URL.`;
			}
		});
		pick.onDidHide(() => {
			pick.dispose();
			resolve(chosen);
		});
		pick.show();
	});
}
