// Uploaded images as <picture>: AVIF and WebP copies in a few widths (made once when the image
// was uploaded, see server/modules/landings/image-variants.ts), the browser picking the format
// it reads and the width its screen needs; the original stays the <img> fallback. The hero is
// preloaded from <head> (AVIF, high priority): it is the page's largest paint.
import type { ImageRef, LandingView } from '../../../contracts/landings.ts';
import { escapeHtml } from '../../../contracts/page-safety.ts';

export type { Picture, PictureSource, Pictures } from '../../../contracts/landings.ts';
import type { Picture, PictureSource, Pictures } from '../../../contracts/landings.ts';
/** What the landing page renders: the view, with its images' pictures when the server has them. */
export type LandingPageView = LandingView & { pictures?: Pictures };

/** The hero spans the page's column (560 px at most), other images sit inside its 20 px padding. */
export const HERO_SIZES = '(min-width: 560px) 560px, 100vw';
export const IMAGE_SIZES = '(min-width: 560px) 520px, calc(100vw - 40px)';

const COPY_URL_RE = /^\/uploads\/[A-Za-z0-9_-]{8,64}\.\d{1,5}\.(?:avif|webp)$/;

/** `url 480w, …` of the copies whose URL is one of ours (a bad row never reaches the markup). */
function srcsetOf(sources: PictureSource[] | undefined): string {
  return (sources ?? [])
    .filter((s) => COPY_URL_RE.test(s.url) && Number.isInteger(s.width) && s.width > 0)
    .map((s) => `${s.url} ${s.width}w`)
    .join(', ');
}

/** The picture of an image, when it has AVIF and WebP copies. */
export function pictureOf(view: LandingPageView, image: ImageRef | null): { picture: Picture; avif: string; webp: string } | null {
  const picture = image && view.pictures?.[image.url];
  if (!picture) return null;
  const avif = srcsetOf(picture.avif);
  const webp = srcsetOf(picture.webp);
  return avif && webp ? { picture, avif, webp } : null;
}

export function PictureImage({ image, src, found, hero }: { image: ImageRef; src: string; found: NonNullable<ReturnType<typeof pictureOf>>; hero?: boolean }) {
  const sizes = hero ? HERO_SIZES : IMAGE_SIZES;
  const { picture, avif, webp } = found;
  return (
    <picture>
      <source type="image/avif" srcSet={avif} sizes={sizes} />
      <source type="image/webp" srcSet={webp} sizes={sizes} />
      {hero ? (
        <img className="hero" src={src} alt={image.alt} width={picture.width} height={picture.height} fetchPriority="high" decoding="async" />
      ) : (
        <img src={src} alt={image.alt} width={picture.width} height={picture.height} loading="lazy" decoding="async" />
      )}
    </picture>
  );
}

/** The hero's preload for <head>: the AVIF copies (browsers without AVIF skip it by its type). */
export function heroPreload(view: LandingPageView): string {
  const found = pictureOf(view, view.landing.content.hero);
  if (!found) return '';
  return `<link rel="preload" as="image" imagesrcset="${escapeHtml(found.avif)}" imagesizes="${HERO_SIZES}" type="image/avif" fetchpriority="high">`;
}
