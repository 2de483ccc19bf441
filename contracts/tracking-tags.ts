// Tracking tags from templates: a marketer picks a kind and enters its ID; the product
// writes the script (page view on load, the conversion event on a submitted form) and the
// landing's Content-Security-Policy lists exactly the hosts those scripts need. Nobody
// writes JavaScript that runs on the back office's origin.
import { z } from './zod.ts';
import { requiredText, text } from './fields.ts';

export const TRACKING_TAG_KINDS = ['meta-pixel', 'google-tag', 'kakao-pixel', 'naver', 'tiktok-pixel'] as const;
export type TrackingTagKind = (typeof TRACKING_TAG_KINDS)[number];

/** The hosts a tag's scripts load from and send to (from each provider's published snippet and CSP guide). */
export interface TagHosts {
  script: string[];
  connect: string[];
  frame: string[];
}

interface TagKindInfo {
  label: string;
  idLabel: string;
  idPattern: RegExp;
  idMessage: string;
  idExample: string;
  /** Where the marketer finds the ID. */
  idHelp: string;
  /** What a submitted form sends. */
  conversion: string;
  hosts: TagHosts;
}

const GOOGLE_ADS_HOSTS: TagHosts = {
  script: ['https://www.googleadservices.com', 'https://googleads.g.doubleclick.net', 'https://www.google.com'],
  connect: ['https://www.google.com', 'https://googleads.g.doubleclick.net', 'https://www.googleadservices.com', 'https://pagead2.googlesyndication.com'],
  frame: ['https://td.doubleclick.net', 'https://www.googletagmanager.com'],
};

export const TAG_KINDS: Record<TrackingTagKind, TagKindInfo> = {
  'meta-pixel': {
    label: 'Meta 픽셀',
    idLabel: '픽셀 ID',
    idPattern: /^\d{15,16}$/,
    idMessage: 'Meta 픽셀 ID는 15~16자리 숫자입니다.',
    idExample: '123456789012345',
    idHelp: 'Meta 이벤트 관리자 › 데이터 소스에서 픽셀을 고르면 이름 아래에 보입니다.',
    conversion: "fbq('track', 'Lead')",
    hosts: { script: ['https://connect.facebook.net'], connect: ['https://www.facebook.com', 'https://connect.facebook.net'], frame: [] },
  },
  'google-tag': {
    label: 'Google 태그 (GA4 · Google Ads)',
    idLabel: '태그 ID',
    idPattern: /^(?:G-[A-Z0-9]{4,12}|AW-\d{6,12})$/,
    idMessage: 'GA4 측정 ID(G-로 시작) 또는 Google Ads 태그 ID(AW-로 시작)를 입력하세요.',
    idExample: 'G-AB12CD34EF 또는 AW-123456789',
    idHelp: 'GA4: 관리 › 데이터 스트림의 측정 ID. Google Ads: 목표 › 전환 › 태그 설정의 AW- 로 시작하는 ID와 전환 라벨.',
    conversion: "GA4: gtag('event', 'generate_lead') · Ads: gtag('event', 'conversion', { send_to: 'AW-…/라벨' })",
    hosts: {
      script: ['https://www.googletagmanager.com'],
      connect: ['https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://www.googletagmanager.com'],
      frame: [],
    },
  },
  'kakao-pixel': {
    label: '카카오 픽셀',
    idLabel: '트랙 ID',
    idPattern: /^\d{5,20}$/,
    idMessage: '카카오 픽셀 트랙 ID는 5~20자리 숫자입니다.',
    idExample: '1234567890123456789',
    idHelp: '카카오모먼트 › 도구 › 픽셀 & SDK에서 트랙 ID를 확인하세요.',
    conversion: "kakaoPixel('…').participation() (잠재고객)",
    hosts: { script: ['https://t1.daumcdn.net'], connect: ['https://*.daum.net', 'https://*.kakao.com'], frame: [] },
  },
  naver: {
    label: '네이버 공통·전환 스크립트',
    idLabel: '공통 인증키',
    idPattern: /^(?:s_)?[0-9a-f]{8,16}$/,
    idMessage: "네이버 공통 인증키는 영문 소문자(a~f)와 숫자 8~16자입니다 (앞의 's_'는 있어도 됩니다).",
    idExample: 's_1a2b3c4d5e6f',
    idHelp: '네이버 광고 › 도구 › 프리미엄 로그분석 › 공통 스크립트의 wa 값입니다. 전환은 신청/예약 유형으로 보냅니다.',
    conversion: "wcs.cnv('4', '1') (신청/예약)",
    hosts: { script: ['https://wcs.naver.net'], connect: ['https://wcs.naver.com', 'https://wcs.naver.net'], frame: [] },
  },
  'tiktok-pixel': {
    label: 'TikTok 픽셀',
    idLabel: '픽셀 ID',
    idPattern: /^[A-Z0-9]{20}$/,
    idMessage: 'TikTok 픽셀 ID는 영문 대문자와 숫자 20자입니다.',
    idExample: 'C4ABCDEFGHIJ12345678',
    idHelp: 'TikTok 광고 관리자 › 도구 › 이벤트 › 웹 이벤트에서 픽셀 이름 아래에 보입니다.',
    conversion: "ttq.track('SubmitForm')",
    hosts: { script: ['https://analytics.tiktok.com'], connect: ['https://analytics.tiktok.com'], frame: [] },
  },
};

const CONVERSION_LABEL_RE = /^[A-Za-z0-9_-]{4,40}$/;

export const trackingTag = z
  .object({
    kind: z.enum(TRACKING_TAG_KINDS, '태그 종류를 선택하세요.'),
    id: requiredText(40, 'ID를 입력하세요.'),
    /** Google Ads only: the conversion action's label (AW-…/label). */
    conversionLabel: text(40).default(''),
  })
  .superRefine((t, ctx) => {
    const info = TAG_KINDS[t.kind];
    if (t.id && !info.idPattern.test(t.id)) ctx.addIssue({ code: 'custom', path: ['id'], message: info.idMessage });
    if (t.conversionLabel && !(t.kind === 'google-tag' && t.id.startsWith('AW-'))) {
      ctx.addIssue({ code: 'custom', path: ['conversionLabel'], message: '전환 라벨은 Google Ads 태그(AW-)에만 씁니다.' });
    } else if (t.conversionLabel && !CONVERSION_LABEL_RE.test(t.conversionLabel)) {
      ctx.addIssue({ code: 'custom', path: ['conversionLabel'], message: '전환 라벨은 영문·숫자·-·_ 4~40자입니다.' });
    }
  });
export type TrackingTag = z.infer<typeof trackingTag>;

export const trackingTags = z
  .array(trackingTag, '추적 태그 목록을 보내세요.')
  .max(10, '추적 태그는 10개까지입니다.')
  .superRefine((tags, ctx) => {
    const seen = new Set<string>();
    tags.forEach((t, i) => {
      const key = `${t.kind}|${t.id}`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: '같은 태그가 이미 있습니다.' });
      seen.add(key);
    });
  });

/** The hosts a landing's tags need, merged (for its CSP). */
export function tagHosts(tags: readonly TrackingTag[]): TagHosts {
  const out: TagHosts = { script: [], connect: [], frame: [] };
  const add = (h: TagHosts) => {
    for (const k of ['script', 'connect', 'frame'] as const) for (const host of h[k]) if (!out[k].includes(host)) out[k].push(host);
  };
  for (const t of tags) {
    add(TAG_KINDS[t.kind].hosts);
    if (t.kind === 'google-tag' && t.id.startsWith('AW-')) add(GOOGLE_ADS_HOSTS);
  }
  return out;
}

// Every value below was validated by its pattern (digits, letters, - and _ only);
// JSON.stringify makes each a JavaScript string literal all the same.
const js = (v: string) => JSON.stringify(v);

/** Loads a script asynchronously, then runs `then` (code using what it defines). */
const load = (src: string, then = '') =>
  `(function(d){var s=d.createElement('script');s.async=1;s.src=${js(src)};${then ? `s.onload=function(){${then}};` : ''}d.head.appendChild(s)})(document);`;

/**
 * The landing's one tag script: each tag's loader and page view, and `window.lrcv()`, which
 * the landing's own script calls once a submission is accepted (the conversion events).
 * Empty when there are no tags.
 */
export function tagScript(tags: readonly TrackingTag[]): string {
  if (!tags.length) return '';
  const head: string[] = [];
  const conversions: string[] = [];
  const google = tags.filter((t) => t.kind === 'google-tag');
  for (const kind of TRACKING_TAG_KINDS) {
    const ofKind = tags.filter((t) => t.kind === kind);
    if (!ofKind.length) continue;
    if (kind === 'meta-pixel') {
      head.push(
        "!function(f,b,e,v,n,t,s){if(f.fbq)return;n=f.fbq=function(){n.callMethod?n.callMethod.apply(n,arguments):n.queue.push(arguments)};if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;n.version='2.0';n.queue=[];t=b.createElement(e);t.async=!0;t.src=v;s=b.getElementsByTagName(e)[0];s.parentNode.insertBefore(t,s)}(window,document,'script','https://connect.facebook.net/en_US/fbevents.js');",
        ...ofKind.map((t) => `fbq('init',${js(t.id)});`),
        "fbq('track','PageView');",
      );
      conversions.push("fbq('track','Lead');");
    } else if (kind === 'google-tag') {
      head.push(
        load(`https://www.googletagmanager.com/gtag/js?id=${google[0]!.id}`),
        "window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());",
        ...google.map((t) => `gtag('config',${js(t.id)});`),
      );
      for (const t of google) {
        conversions.push(
          t.id.startsWith('AW-')
            ? t.conversionLabel
              ? `gtag('event','conversion',{send_to:${js(`${t.id}/${t.conversionLabel}`)}});`
              : ''
            : `gtag('event','generate_lead',{send_to:${js(t.id)}});`,
        );
      }
    } else if (kind === 'kakao-pixel') {
      head.push(load('https://t1.daumcdn.net/kas/static/kp.js', ofKind.map((t) => `kakaoPixel(${js(t.id)}).pageView();`).join('')));
      conversions.push(`if(window.kakaoPixel){${ofKind.map((t) => `kakaoPixel(${js(t.id)}).participation();`).join('')}}`);
    } else if (kind === 'naver') {
      // wcs_add.wa is one account per page: the first tag's.
      head.push(`window.wcs_add={wa:${js(ofKind[0]!.id)}};` + load('https://wcs.naver.net/wcslog.js', 'if(window.wcs)wcs_do();'));
      conversions.push("if(window.wcs){var _nasa={};_nasa.cnv=wcs.cnv('4','1');wcs_do(_nasa);}");
    } else if (kind === 'tiktok-pixel') {
      head.push(
        "!function(w,d,t){w.TiktokAnalyticsObject=t;var q=w[t]=w[t]||[];q.methods=['page','track','identify','instances','debug','on','off','once','ready','alias','group','enableCookie','disableCookie'];q.setAndDefer=function(o,m){o[m]=function(){o.push([m].concat(Array.prototype.slice.call(arguments,0)))}};for(var i=0;i<q.methods.length;i++)q.setAndDefer(q,q.methods[i]);q.instance=function(id){for(var e=q._i[id]||[],n=0;n<q.methods.length;n++)q.setAndDefer(e,q.methods[n]);return e};q.load=function(id,o){var r='https://analytics.tiktok.com/i18n/pixel/events.js';q._i=q._i||{};q._i[id]=[];q._i[id]._u=r;q._t=q._t||{};q._t[id]=+new Date;q._o=q._o||{};q._o[id]=o||{};var s=d.createElement('script');s.async=!0;s.src=r+'?sdkid='+id+'&lib='+t;d.head.appendChild(s)}}(window,document,'ttq');",
        ...ofKind.map((t) => `ttq.load(${js(t.id)});`),
        'ttq.page();',
      );
      conversions.push("ttq.track('SubmitForm');");
    }
  }
  // One provider failing (blocked, not loaded) never stops the others.
  const fire = conversions.filter(Boolean).map((c) => `try{${c}}catch(e){}`);
  return `${head.join('')}window.lrcv=function(){${fire.join('')}};`;
}

/** Meta's image pixel for browsers without JavaScript (the event: PageView on the landing, Lead after a submission). */
export function tagNoscript(tags: readonly TrackingTag[], event: 'PageView' | 'Lead'): string {
  const meta = tags.filter((t) => t.kind === 'meta-pixel');
  if (!meta.length) return '';
  const imgs = meta.map((t) => `<img height="1" width="1" alt="" style="display:none" src="https://www.facebook.com/tr?id=${t.id}&amp;ev=${event}&amp;noscript=1">`);
  return `<noscript>${imgs.join('')}</noscript>`;
}
