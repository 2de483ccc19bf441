// The routing error page: plain markup, so it renders even when chunks cannot load.
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

export function RouteError() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message = isRouteErrorResponse(error)
    ? error.statusText || String(error.data ?? '')
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <div style={{ padding: 32, fontFamily: 'inherit' }}>
      <h2 style={{ margin: '0 0 8px' }}>Unexpected Application Error!</h2>
      <h3 style={{ margin: '0 0 16px', fontStyle: 'italic', fontWeight: 400 }}>
        {status} {message}
      </h3>
      <p style={{ color: '#666' }}>
        문제가 계속되면 페이지를 새로고침하거나 <a href="/">처음 화면</a>으로 이동하세요.
      </p>
    </div>
  );
}
