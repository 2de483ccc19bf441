// An account's own password: from the account menu (a modal), and as the only screen
// while the account holds a generated or reset password it must replace.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input, Modal, Typography } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { authApi, changePasswordBody, type SessionAccount } from '@contracts/auth.ts';
import { call } from '@/lib/api.ts';
import { apiKey } from '@/lib/use-call.ts';
import { useAuth } from '@/lib/auth.tsx';
import { zodRule } from '@/lib/zod-rule.ts';
import { useCloseGuard, useTrackChanges } from '@/lib/close-guard.ts';
import { useFormSave } from '@/components/resource-form.tsx';

interface Values {
  currentPassword: string;
  newPassword: string;
  confirm: string;
}

const POLICY = '영문·숫자·특수문자 중 2종류 이상으로 10자 이상, 또는 3종류로 8자 이상';

function usePasswordForm(onDone: () => void) {
  const [form] = Form.useForm<Values>();
  const { saving, save } = useFormSave(form);
  const { signIn } = useAuth();
  const queryClient = useQueryClient();

  async function submit() {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const ok = await save(async () => {
      await call(authApi.password, { body: { currentPassword: values.currentPassword, newPassword: values.newPassword } });
      // The account as the server now has it, also where the layout keeps it in step.
      const session = await call(authApi.session);
      queryClient.setQueryData(apiKey(authApi.session), session);
      signIn(session.account);
      return '비밀번호를 바꿨습니다. 다른 기기와 브라우저의 로그인은 모두 종료되었습니다.';
    });
    if (ok) {
      form.resetFields();
      onDone();
    }
  }

  const fields = (
    <Form form={form} name="password-change" layout="vertical" requiredMark="optional" onFinish={submit}>
      <Form.Item label="현재 비밀번호" name="currentPassword" required rules={[zodRule(changePasswordBody, 'currentPassword')]}>
        <Input.Password autoComplete="current-password" autoFocus />
      </Form.Item>
      <Form.Item label="새 비밀번호" name="newPassword" extra={POLICY} required rules={[zodRule(changePasswordBody, 'newPassword')]}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        label="새 비밀번호 확인"
        name="confirm"
        required
        dependencies={['newPassword']}
        rules={[
          { required: true, message: '새 비밀번호를 한 번 더 입력하세요.' },
          ({ getFieldValue }) => ({
            validator: async (_r, v) => {
              if (v && v !== getFieldValue('newPassword')) throw new Error('새 비밀번호와 같게 입력하세요.');
            },
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <button type="submit" hidden />
    </Form>
  );
  return { form, fields, saving, submit };
}

/** 비밀번호 변경 from the account menu. */
export function PasswordChangeModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { fields, saving, submit, form } = usePasswordForm(onClose);
  const guard = useCloseGuard(() => {
    form.resetFields();
    onClose();
  });
  useTrackChanges(guard, form, open);
  return (
    <Modal
      open={open}
      title="비밀번호 변경"
      okText="변경"
      cancelText="취소"
      confirmLoading={saving}
      onOk={submit}
      onCancel={guard.requestClose}
      maskClosable={false}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">바꾸면 이 브라우저를 뺀 다른 곳의 로그인은 모두 종료됩니다.</Typography.Paragraph>
      {fields}
    </Modal>
  );
}

/** The whole screen while the account must replace a generated or reset password. */
export function PasswordChangeRequired({ account }: { account: SessionAccount }) {
  const [done, setDone] = useState(false);
  const { fields, saving, submit } = usePasswordForm(() => setDone(true));
  const { signOut } = useAuth();
  const { message } = App.useApp();
  return (
    <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', padding: 24 }}>
      <Card style={{ width: 440 }} title={<><LockOutlined /> 새 비밀번호 정하기</>}>
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 20 }}
          title={`${account.name}님, 처음 받은 비밀번호나 초기화된 비밀번호는 한 번만 쓸 수 있습니다.`}
          description="계속하려면 본인만 아는 새 비밀번호를 정하세요."
        />
        {fields}
        <div style={{ display: 'flex', justifyContent: 'space-between' }}>
          <Button onClick={() => void signOut().catch(() => message.error('로그아웃하지 못했습니다.'))}>로그아웃</Button>
          <Button type="primary" loading={saving || done} onClick={submit}>
            비밀번호 정하고 시작하기
          </Button>
        </div>
      </Card>
    </div>
  );
}
