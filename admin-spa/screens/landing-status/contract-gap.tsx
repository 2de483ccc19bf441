// After publishing: a landing no contract covers bills nothing, so the marketer is told why
// (the reasons come from the server's contractGap) and where to add a contract.
import type { useAppProps } from 'antd/es/app/context.js';
import { CONTRACT_GAP_TITLE } from '@contracts/money.ts';

export function warnContractGap(modal: useAppProps['modal'], reasons: readonly string[]) {
  modal.warning({
    title: '게시했지만, 계약에 들어가지 않는 랜딩입니다',
    width: 480,
    content: (
      <div data-testid="contract-gap">
        <p>{CONTRACT_GAP_TITLE}</p>
        <ul style={{ paddingInlineStart: 18 }}>
          {reasons.map((r) => <li key={r}>{r}</li>)}
        </ul>
        <p style={{ marginBottom: 0 }}>
          청구하려면 계약 관리에서 이 랜딩(또는 그 매체)을 계약에 넣으세요. 계약 현황과 대시보드에도 이 랜딩이 표시됩니다.
        </p>
      </div>
    ),
    okText: '확인',
  });
}
