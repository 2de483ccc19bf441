// The banner an editor shows when it finds a draft of unsaved work: restore it or discard it.
import { Alert, Button, Space } from 'antd';
import { toPicker } from '@/lib/seoul-time.ts';
import type { KeptDraft } from '@/lib/kept-drafts.ts';

export function DraftOffer({ draft, stale, onRestore, onDiscard }: {
  draft: KeptDraft;
  /** Saved again since the draft was written: restoring overwrites that save's changes. */
  stale: boolean;
  onRestore: () => void;
  onDiscard: () => void;
}) {
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 12 }}
      title={`저장하지 않고 닫은 내용이 있습니다 (${toPicker(draft.at)!.format('M월 D일 HH:mm')}).`}
      description={
        <>
          이 브라우저에 임시 보관된 내용입니다. 되살리거나 버리세요. 새로 입력하기 시작하면 보관된 내용은 버려집니다.
          {stale && ' 그 뒤에 다시 저장된 내용이 있어, 되살리면 그 변경을 덮어씁니다.'}
        </>
      }
      action={
        <Space orientation="vertical" size={4}>
          <Button size="small" type="primary" onClick={onRestore}>
            되살리기
          </Button>
          <Button size="small" onClick={onDiscard}>
            버리기
          </Button>
        </Space>
      }
    />
  );
}
