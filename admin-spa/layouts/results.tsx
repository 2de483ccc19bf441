// Result displays for 403, 404 and 500.
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router-dom';
import { AntShell } from './ant-shell.tsx';

/** Standalone (outside the back-office shell), so it brings its own antd setup. */
export function NotFound() {
  const navigate = useNavigate();
  return (
    <AntShell>
    <Result
      status="404"
      title="404"
      subTitle="요청하신 주소의 페이지를 찾을 수 없습니다."
      extra={
        <>
          <p style={{ color: 'rgba(0,0,0,0.6)' }}>주소가 올바른지 확인하시거나 잠시 후 다시 시도해 주세요.</p>
          <Button type="primary" onClick={() => navigate('/')}>
            처음 화면으로
          </Button>
        </>
      }
    />
    </AntShell>
  );
}

export function Forbidden({ message = '이 화면을 볼 권한이 없습니다. 필요하면 관리자에게 권한을 요청하세요.' }: { message?: string }) {
  const navigate = useNavigate();
  return (
    <Result
      status="403"
      title="403"
      subTitle={message}
      extra={
        <Button type="primary" onClick={() => navigate(-1)}>
          이전 화면으로
        </Button>
      }
    />
  );
}

export function ServerError({ message, onRetry }: { message?: string; onRetry?: () => void }) {
  return (
    <Result
      status="500"
      title="500"
      subTitle={message ?? '서버 오류가 발생했습니다. 잠시 후 다시 시도하세요.'}
      extra={
        onRetry ? (
          <Button type="primary" onClick={onRetry}>
            다시 시도
          </Button>
        ) : undefined
      }
    />
  );
}
