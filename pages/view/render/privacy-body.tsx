// The landing's privacy policy page. The shop always appears as a recipient: the agency
// collects the lead and provides it to the shop.
import { landingPath, type PrivacyPageView } from '../../../contracts/landings.ts';
import type { ThirdParty } from '../../../contracts/privacy.ts';
import { formatSeoul } from '../../../contracts/kst.ts';
import { Paragraphs, ShopFooter } from './landing-body.tsx';

export function recipients(view: PrivacyPageView): ThirdParty[] {
  const p = view.policy!;
  const names = [view.shop.name, view.shop.companyName].filter((n): n is string => !!n);
  const listed = p.thirdParties.some((t) => names.some((n) => t.recipient.includes(n)));
  const shopRow: ThirdParty = { recipient: view.shop.companyName ?? view.shop.name, purpose: p.purpose, items: p.items, period: `제공일로부터 ${p.retentionDays}일` };
  return listed ? p.thirdParties : [shopRow, ...p.thirdParties];
}

export function PrivacyBody({ view }: { view: PrivacyPageView }) {
  const { shop, landing, policy } = view;
  const back = landingPath(shop.code, landing.code);
  return (
    <main>
      <div className="in">
        <h1>개인정보 처리방침</h1>
        <p className="sub">{shop.name} 상담 신청</p>
        {!policy ? (
          <p>아직 게시된 개인정보 처리방침이 없습니다.</p>
        ) : (
          <>
            <p className="meta">
              버전 {policy.version} · 시행일 {formatSeoul(policy.publishedAt).slice(0, 10)}
            </p>
            <h2>1. 수집·이용 목적</h2>
            <Paragraphs text={policy.purpose} />
            <h2>2. 수집 항목</h2>
            <p>{policy.items}</p>
            <h2>3. 보유·이용 기간</h2>
            <p>수집일로부터 {policy.retentionDays}일 동안 보유·이용하며, 기간이 끝나면 지체 없이 파기합니다.</p>
            <h2>4. 개인정보의 제3자 제공</h2>
            <table>
              <thead>
                <tr>
                  <th>제공받는 자</th>
                  <th>제공 목적</th>
                  <th>제공 항목</th>
                  <th>보유·이용 기간</th>
                </tr>
              </thead>
              <tbody>
                {recipients(view).map((t, i) => (
                  <tr key={i}>
                    <td>{t.recipient}</td>
                    <td>{t.purpose}</td>
                    <td>{t.items}</td>
                    <td>{t.period}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <h2>5. 동의를 거부할 권리</h2>
            <p>개인정보 수집·이용 및 제공에 동의하지 않을 수 있습니다. 다만 동의하지 않으면 상담 신청을 할 수 없습니다.</p>
            <h2>6. 개인정보 보호책임자</h2>
            <p>{[policy.officerName ?? '담당자', policy.officerContact].filter(Boolean).join(' · ')}</p>
            {policy.body && (
              <>
                <h2>7. 기타</h2>
                <Paragraphs text={policy.body} />
              </>
            )}
          </>
        )}
        <p>
          <a href={back}>신청 페이지로 돌아가기</a>
        </p>
      </div>
      <ShopFooter shop={shop} />
    </main>
  );
}
