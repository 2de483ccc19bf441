// A secret shown the one time it exists in the clear (a new API key, a webhook's signing
// secret): a modal that only its button or × closes, with the warning that it will not show again.
import type { ReactNode } from 'react';
import { Alert, Button, Modal, Space } from 'antd';

export function OneTimeSecret<T>({ shown, title, closeText, warning, warningNote, onClose, children }: {
  /** What to show; null closes the modal. */
  shown: T | null;
  title: string;
  closeText: string;
  warning: string;
  warningNote: string;
  onClose: () => void;
  /** The secret and what goes with it. */
  children: (shown: T) => ReactNode;
}) {
  return (
    <Modal
      open={shown !== null}
      title={title}
      width={680}
      mask={{ closable: false }}
      onCancel={onClose}
      footer={<Button type="primary" onClick={onClose}>{closeText}</Button>}
      destroyOnHidden
    >
      {shown !== null && (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Alert type="warning" showIcon title={warning} description={warningNote} />
          {children(shown)}
        </Space>
      )}
    </Modal>
  );
}
