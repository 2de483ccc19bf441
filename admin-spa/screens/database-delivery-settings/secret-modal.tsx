// A webhook's signing secret, shown the one time it exists in the clear (after creating the
// channel or rotating the secret), with a copy button and how to verify the signature.
import { Alert, Space, Typography } from 'antd';
import { IDEMPOTENCY_HEADER, SIGNATURE_HEADER } from '@contracts/delivery.ts';
import { SECRET_GRACE_HOURS } from '@contracts/delivery-channels.ts';
import { formatDateTime } from '@/lib/format.ts';
import { OneTimeSecret } from '@/components/one-time-secret.tsx';

export interface ShownSecret {
  channelName: string;
  secret: string;
  /** After a rotation: until when the old secret still signs. */
  previousValidUntil?: string | null;
}

const SNIPPET = `// Node.js: 본문은 파싱하기 전의 원문 그대로 (express라면 express.raw())
const crypto = require('node:crypto');

function verifyLeadroom(rawBody, header, secret) {
  // ${SIGNATURE_HEADER}: t=<유닉스 초>,v1=<서명>[,v1=<서명>]
  const parts = header.split(',').map((p) => p.split('='));
  const t = parts.find(([k]) => k === 't')?.[1];
  // 5분이 넘은 요청은 거부 (가로챈 요청의 재전송 방지)
  if (!t || Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  const expected = crypto.createHmac('sha256', secret)
    .update(\`\${t}.\${rawBody}\`).digest('hex');
  // 비밀키를 바꾸는 동안에는 v1이 둘 옵니다: 하나라도 맞으면 통과
  return parts.some(([k, v]) => k === 'v1' && v.length === expected.length
    && crypto.timingSafeEqual(Buffer.from(v), Buffer.from(expected)));
}`;

/** How a receiver tells where a lead came from, checks that a request came from us, and drops a repeat. */
export function SignatureHelp() {
  return (
    <Space orientation="vertical" size={8} style={{ width: '100%' }}>
      <Typography.Paragraph style={{ marginBottom: 0 }}>
        모든 요청에 <Typography.Text code>{SIGNATURE_HEADER}</Typography.Text> 헤더가 붙습니다. <Typography.Text code>t</Typography.Text>는 보낸 시각(유닉스 초),{' '}
        <Typography.Text code>v1</Typography.Text>은 <Typography.Text code>t.본문</Typography.Text>(t 값, 마침표, 받은 본문)을 비밀키로 만든 HMAC-SHA256(16진수)입니다.
        본문은 받은 그대로(파싱 전 원문)로 계산하세요.
      </Typography.Paragraph>
      <Typography.Paragraph style={{ marginBottom: 0 }}>
        본문의 DB마다 <Typography.Text code>source</Typography.Text>가 들어온 경로를 알려 줍니다: <Typography.Text code>landing</Typography.Text>(랜딩 신청, 광고 DB),{' '}
        <Typography.Text code>manual</Typography.Text>(수기 등록), <Typography.Text code>import</Typography.Text>(파일 가져오기). 광고 성과에는 landing만 세세요.
      </Typography.Paragraph>
      <Typography.Paragraph style={{ marginBottom: 0 }}>
        재시도해도 같은 전송이면 <Typography.Text code>{IDEMPOTENCY_HEADER}</Typography.Text> 값이 같습니다. 이미 처리한 키는 2xx로 답하고 건너뛰세요.
      </Typography.Paragraph>
      <Typography.Paragraph copyable={{ text: SNIPPET, tooltips: ['코드 복사', '복사했습니다'] }} style={{ marginBottom: 0 }}>
        <pre style={{ margin: 0, fontSize: 12, whiteSpace: 'pre', overflowX: 'auto' }}>{SNIPPET}</pre>
      </Typography.Paragraph>
    </Space>
  );
}

export function SecretModal({ shown, onClose }: { shown: ShownSecret | null; onClose: () => void }) {
  return (
    <OneTimeSecret
      shown={shown}
      title={shown ? `서명 비밀키 · ${shown.channelName}` : '서명 비밀키'}
      closeText="닫기"
      warning="이 비밀키는 지금 한 번만 보여 드립니다."
      warningNote="창을 닫으면 다시 볼 수 없습니다. 받는 시스템의 설정에 바로 저장하세요. 잃어버리면 비밀키를 재발급하면 됩니다."
      onClose={onClose}
    >
      {(shown) => (
        <>
          <Typography.Paragraph
            copyable={{ text: shown.secret, tooltips: ['비밀키 복사', '복사했습니다'] }}
            style={{ fontFamily: 'monospace', fontSize: 15, background: '#fafafa', padding: '10px 12px', borderRadius: 6, marginBottom: 0 }}
          >
            {shown.secret}
          </Typography.Paragraph>
          {shown.previousValidUntil && (
            <Alert
              type="info"
              showIcon
              title={`이전 비밀키도 ${formatDateTime(shown.previousValidUntil)}까지 (${SECRET_GRACE_HOURS}시간) 함께 서명합니다.`}
              description="그동안 요청마다 v1 서명이 두 개 붙습니다. 받는 시스템을 새 비밀키로 바꾸면 됩니다."
            />
          )}
          <div>
            <Typography.Title level={5}>본문과 서명 검증</Typography.Title>
            <SignatureHelp />
          </div>
        </>
      )}
    </OneTimeSecret>
  );
}
