// The landing page's visible content. React escapes every staff-written string; URLs
// reaching src/href were validated as http(s) or /uploads/ paths by the contracts, and
// are checked again here so a bad row can never produce a javascript: link.
import type { ReactNode } from 'react';
import { isHttpUrl, privacyPath, UPLOAD_URL_RE, type FormField, type ImageRef, type LandingView } from '../../../contracts/landings.ts';
import { HONEYPOT_FIELD, TOKEN_FIELD, UTM_KEYS, VARIANT_FIELD, variantValue } from '../../../contracts/intake.ts';
import { formatBusinessNumber, formatPhone } from '../../../contracts/rules.ts';
import { collectedItems, sensitiveItems } from '../../../contracts/privacy.ts';
import { partiesOf } from './parties.ts';
import { PictureImage, pictureOf, type LandingPageView } from './picture.tsx';

export const safeUrl = (url: string | null | undefined): string | undefined =>
  url && (UPLOAD_URL_RE.test(url) || isHttpUrl(url)) ? url : undefined;

/** Blank lines separate paragraphs; single line breaks are kept. */
export function Paragraphs({ text }: { text: string }) {
  const paragraphs = text.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
  return (
    <>
      {paragraphs.map((p, i) => (
        <p key={i}>
          {p.split('\n').map((line, j) => (
            <span key={j}>
              {j > 0 && <br />}
              {line}
            </span>
          ))}
        </p>
      ))}
    </>
  );
}

function Image({ view, image, hero }: { view: LandingPageView; image: ImageRef; hero?: boolean }) {
  const src = safeUrl(image.url);
  if (!src) return null;
  const found = pictureOf(view, image);
  if (found) return <PictureImage image={image} src={src} found={found} hero={hero} />;
  return hero ? (
    <img className="hero" src={src} alt={image.alt} width={image.width} height={image.height} decoding="async" />
  ) : (
    <img src={src} alt={image.alt} width={image.width} height={image.height} loading="lazy" decoding="async" />
  );
}

function Req({ on }: { on: boolean }) {
  return on ? <span className="req"> *</span> : null;
}

function Field({ field }: { field: FormField }) {
  if (field.type === 'short-text') {
    return (
      <label className="f">
        {field.label}
        <Req on={field.required} />
        <input name={field.key} maxLength={200} required={field.required} />
      </label>
    );
  }
  if (field.type === 'select') {
    return (
      <label className="f">
        {field.label}
        <Req on={field.required} />
        <select name={field.key} required={field.required} defaultValue="">
          <option value="">선택하세요</option>
          {field.options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      </label>
    );
  }
  const radio = field.type === 'radio';
  return (
    <fieldset>
      <legend>
        {field.label}
        <Req on={field.required} />
      </legend>
      {field.options.map((o) => (
        <label className="o" key={o}>
          <input type={radio ? 'radio' : 'checkbox'} name={field.key} value={o} required={radio && field.required} />
          {o}
        </label>
      ))}
    </fieldset>
  );
}

function Consent({ name, label, required, note, children }: { name: string; label: string; required: boolean; note?: string; children: ReactNode }) {
  return (
    <>
      <label className="o">
        <input type="checkbox" name={name} value="1" required={required} />
        <span>
          <b>{required ? '[필수]' : note ? `[${note} 필수]` : '[선택]'}</b> {label}
        </span>
      </label>
      <details>
        <summary>내용 보기</summary>
        {children}
      </details>
    </>
  );
}

export function ShopFooter({ shop, privacyHref }: { shop: LandingView['shop']; privacyHref?: string }) {
  const parts = [
    shop.companyName ?? shop.name,
    shop.representative && `대표 ${shop.representative}`,
    shop.businessNumber && `사업자등록번호 ${formatBusinessNumber(shop.businessNumber)}`,
    shop.address,
    shop.phone && `전화 ${formatPhone(shop.phone)}`,
  ].filter(Boolean);
  return (
    <footer>
      {parts.join(' · ')}
      {privacyHref && (
        <>
          <br />
          <a href={privacyHref}>개인정보 처리방침</a>
        </>
      )}
    </footer>
  );
}

export function LandingBody({ view }: { view: LandingPageView }) {
  const { shop, landing, policy } = view;
  const c = landing.content;
  const sensitive = sensitiveItems(landing.formFields);
  const privacyHref = privacyPath(shop.code, landing.code);
  const redirect = safeUrl(landing.thankYouUrl);
  const formProps = view.preview ? {} : { method: 'post', action: '/api/public/leads' };
  return (
    <main>
      {view.preview && <div className="pv">미리보기 화면입니다. 여기서는 신청이 접수되지 않습니다.</div>}
      {c.hero && <Image view={view} image={c.hero} hero />}
      <div className="in">
        <h1>{c.headline}</h1>
        {c.subheadline && <p className="sub">{c.subheadline}</p>}
        {c.body && (
          <div className="txt">
            <Paragraphs text={c.body} />
          </div>
        )}
        {c.bullets.length > 0 && (
          <ul className="pts">
            {c.bullets.map((b, i) => (
              <li key={i}>{b}</li>
            ))}
          </ul>
        )}
        {c.images.length > 0 && (
          <div className="imgs">
            {c.images.map((img, i) => (
              <Image key={i} view={view} image={img} />
            ))}
          </div>
        )}
        <form id="f" {...formProps} data-r={redirect}>
          <h2>{c.ctaLabel}</h2>
          <input type="hidden" name="shopCode" value={shop.code} />
          <input type="hidden" name="landingCode" value={landing.code} />
          <input type="hidden" name={TOKEN_FIELD} value={view.token} />
          {view.variant && <input type="hidden" name={VARIANT_FIELD} value={variantValue(view.variant.experimentId, view.variant.key)} />}
          {UTM_KEYS.map((k) => (
            <input key={k} type="hidden" name={k} value="" />
          ))}
          <input type="hidden" name="referrer" value="" />
          <div className="hp" aria-hidden="true">
            <label>
              홈페이지
              <input name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" />
            </label>
          </div>
          <label className="f">
            이름
            <Req on />
            <input name="name" required maxLength={30} autoComplete="name" />
          </label>
          <label className="f">
            연락처
            <Req on />
            <input name="phone" type="tel" inputMode="tel" required maxLength={20} autoComplete="tel" placeholder="010-0000-0000" />
          </label>
          {landing.formFields.map((f) => (
            <Field key={f.key} field={f} />
          ))}
          <div className="c">
            <Consent name="privacyConsent" label="개인정보 수집·이용 동의" required>
              <Paragraphs text={landing.privacyConsentText} />
              {policy && (
                <p>
                  수집하는 자: {partiesOf(shop, policy, view.operator, landing.formFields).collector.name} / 수집 항목: {collectedItems(landing.formFields)} / 보유
                  기간: {policy.retentionDays}일
                </p>
              )}
            </Consent>
            {sensitive.length > 0 && (
              <Consent name="sensitiveConsent" label="민감정보 처리 동의" required={landing.formFields.some((f) => f.sensitive && f.required)} note="민감정보를 입력한 경우">
                <p>
                  수집 항목: {sensitive.join(', ')} (건강 등 민감정보)
                  {policy && ` / 이용 목적: ${policy.purpose} / 보유 기간: ${policy.retentionDays}일`}
                </p>
                <p>민감정보 처리에 동의하지 않을 수 있으며, 동의하지 않으면 해당 항목은 입력하지 않고 신청할 수 있습니다.</p>
              </Consent>
            )}
            {landing.marketingConsentText && (
              <Consent name="marketingConsent" label="마케팅 정보 수신 동의" required={false}>
                <Paragraphs text={landing.marketingConsentText} />
              </Consent>
            )}
            <a href={privacyHref}>개인정보 처리방침 보기</a>
          </div>
          <p id="m" role="alert"></p>
          <button type={view.preview ? 'button' : 'submit'}>{c.ctaLabel}</button>
        </form>
        <div id="ok" hidden tabIndex={-1}>
          {landing.thankYouMessage}
        </div>
      </div>
      <ShopFooter shop={shop} privacyHref={privacyHref} />
    </main>
  );
}
