// The landing's privacy policy page: who collects (see parties.ts), what, why, for how
// long, to whom it goes, and the right to refuse.
import { Fragment, type ReactNode } from 'react';
import { landingPath, type PrivacyPageView } from '../../../contracts/landings.ts';
import { AUTO_COLLECTED_ITEMS, collectedItems, sensitiveItems } from '../../../contracts/privacy.ts';
import { partiesOf, type Parties, type Party } from './parties.ts';
import { formatBusinessNumber, formatPhone } from '../../../contracts/rules.ts';
import { formatSeoul } from '../../../contracts/kst.ts';
import { withJosa } from '../../../contracts/korean.ts';
import { Paragraphs, ShopFooter } from './landing-body.tsx';

function PartyTable({ party }: { party: Party }) {
  const rows: Array<[string, string | null]> = [
    ['상호', party.name],
    ['대표자', party.representative],
    ['사업자등록번호', party.businessNumber && formatBusinessNumber(party.businessNumber)],
    ['주소', party.address],
    ['연락처', party.phone && formatPhone(party.phone)],
  ];
  return (
    <table>
      <tbody>
        {rows
          .filter(([, v]) => v)
          .map(([k, v]) => (
            <tr key={k}>
              <th>{k}</th>
              <td>{v}</td>
            </tr>
          ))}
      </tbody>
    </table>
  );
}

export function PrivacyBody({ view }: { view: PrivacyPageView }) {
  const { shop, landing, policy, operator } = view;
  const back = landingPath(shop.code, landing.code);
  const sections: Array<[string, ReactNode]> = [];
  let parties: Parties | null = null;
  if (policy) {
    parties = partiesOf(shop, policy, operator, landing.formFields);
    const sensitive = sensitiveItems(landing.formFields);
    sections.push(
      ['개인정보를 수집하는 자', <PartyTable party={parties.collector} />],
      ['수집·이용 목적', <Paragraphs text={policy.purpose} />],
      [
        '수집 항목',
        <>
          <p>{collectedItems(landing.formFields)}</p>
          <p>자동으로 수집되는 항목: {AUTO_COLLECTED_ITEMS}</p>
          {sensitive.length > 0 && <p>민감정보: {sensitive.join(', ')} — 따로 동의한 경우에만 수집·이용합니다.</p>}
        </>,
      ],
      ['보유·이용 기간', <p>수집일로부터 {policy.retentionDays}일 동안 보유·이용하며, 기간이 끝나면 지체 없이 파기합니다.</p>],
      [
        '개인정보의 제3자 제공',
        parties.recipients.length ? (
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
              {parties.recipients.map((t, i) => (
                <tr key={i}>
                  <td>{t.recipient}</td>
                  <td>{t.purpose}</td>
                  <td>{t.items}</td>
                  <td>{t.period}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p>개인정보를 제3자에게 제공하지 않습니다.</p>
        ),
      ],
    );
    if (parties.consignee) {
      sections.push([
        '개인정보 처리의 위탁',
        <table>
          <thead>
            <tr>
              <th>수탁자</th>
              <th>위탁 업무</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>{parties.consignee.companyName}</td>
              <td>광고 신청 페이지 운영, 상담 신청 접수 및 전달</td>
            </tr>
          </tbody>
        </table>,
      ]);
    }
    sections.push(
      ['동의를 거부할 권리', <p>개인정보 수집·이용 및 제공에 동의하지 않을 수 있습니다. 다만 동의하지 않으면 상담 신청을 할 수 없습니다.</p>],
      ['개인정보 보호책임자', <p>{[parties.officer.name ?? '개인정보 보호 담당자', parties.officer.contact].filter(Boolean).join(' · ')}</p>],
    );
    if (policy.body) sections.push(['기타', <Paragraphs text={policy.body} />]);
  }
  return (
    <main>
      <div className="in">
        <h1>개인정보 처리방침</h1>
        <p className="sub">{landing.title} 신청</p>
        {!policy || !parties ? (
          <p>아직 게시된 개인정보 처리방침이 없습니다.</p>
        ) : (
          <>
            <p className="meta">
              버전 {policy.version} · 시행일 {formatSeoul(policy.publishedAt).slice(0, 10)}
            </p>
            <p>
              {withJosa(parties.collector.name, '은/는')} 「개인정보 보호법」에 따라 이 페이지의 신청으로 받는 개인정보를 다음과 같이 처리합니다.
            </p>
            {sections.map(([title, body], i) => (
              <Fragment key={title}>
                <h2>
                  {i + 1}. {title}
                </h2>
                {body}
              </Fragment>
            ))}
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
