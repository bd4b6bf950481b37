// The host's side of the composer's images (webview/images.ts): a pasted or dropped image's bytes,
// or a workspace file (the `@` list, VS Code's explorer), checked by their bytes and against the
// current provider's bound (src/view/imageUploads.ts), answered with the image or why not. Nothing is
// kept here: the composer holds what it attached until the message goes (the core `submit`).
import { Disposable, type IDisposable, toDisposable } from '../../base/lifecycle';
import { errorMessage } from '../../base/errors';
import type { Logger } from '../../base/log';
import type { AttachedImageView } from '../../protocol/images';
import { MAX_ATTACHED_IMAGE_BYTES } from '../../protocol/images';
import type { ViewMessage } from '../../protocol/messages';
import { decodedBytes } from '../../tools/images';
import { formatBytes } from '../../tools/text';
import type { FeatureViewPart, FeatureViewPort } from '../../view/featureView';
import { checkImage, type ImageSources } from '../../view/imageUploads';

export class ImageAttachments extends Disposable implements FeatureViewPart {
	readonly id = 'images';

	constructor(
		private readonly sources: ImageSources | undefined,
		private readonly log: Logger,
	) {
		super();
	}

	connect(): IDisposable {
		return toDisposable(() => undefined);
	}

	receive(message: ViewMessage, view: FeatureViewPort): void {
		if (message.type === 'images.attach') {
			this.answer(view, message.requestId, message.image.name, Buffer.from(message.image.data, 'base64'), false);
		} else if (message.type === 'images.attachFile') {
			void this.attachFile(view, message.requestId, message.file);
		}
	}

	private async attachFile(view: FeatureViewPort, requestId: string, file: string): Promise<void> {
		if (!this.sources) {
			view.send({ type: 'images.refused', requestId, reason: 'Images from files cannot be attached here.' });
			return;
		}
		try {
			const { name, bytes } = await this.sources.readFile(file, MAX_ATTACHED_IMAGE_BYTES + 1);
			this.answer(view, requestId, name, bytes, true);
		} catch (error) {
			this.log.warn(`Aside: could not attach ${file}: ${errorMessage(error)}`);
			view.send({ type: 'images.refused', requestId, reason: `${JSON.stringify(file)} could not be read: ${errorMessage(error)}` });
		}
	}

	private answer(view: FeatureViewPort, requestId: string, name: string, bytes: Uint8Array, withData: boolean): void {
		const checked = checkImage(name, bytes, this.sources?.limits());
		if ('refused' in checked) {
			view.send({ type: 'images.refused', requestId, reason: checked.refused });
			return;
		}
		const { image } = checked;
		const size = image.width === undefined || image.height === undefined ? {} : { width: image.width, height: image.height };
		const data = withData ? { data: image.data } : {};
		const attached: AttachedImageView = { name, mimeType: image.mimeType, bytes: decodedBytes(image.data), ...size, ...data };
		this.log.debug(`Aside: attached ${name} (${image.mimeType}, ${formatBytes(attached.bytes)}).`);
		view.send({ type: 'images.attached', requestId, image: attached });
	}
}
