<?php

declare(strict_types=1);

namespace Caisse;

/** The default transport: PHP's curl extension. */
final class CurlTransport implements Transport
{
    public function send(string $method, string $url, array $headers, ?string $body, float $timeoutSeconds): array
    {
        $handle = curl_init($url);
        if ($handle === false) {
            throw new TransportFailure('curl_init failed');
        }
        $lines = [];
        foreach ($headers as $name => $value) {
            $lines[] = $name . ': ' . $value;
        }
        $received = [];
        curl_setopt_array($handle, [
            CURLOPT_CUSTOMREQUEST => $method,
            CURLOPT_HTTPHEADER => $lines,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_FOLLOWLOCATION => false,
            CURLOPT_TIMEOUT_MS => (int) ceil($timeoutSeconds * 1000),
            CURLOPT_CONNECTTIMEOUT_MS => (int) ceil($timeoutSeconds * 1000),
            CURLOPT_PROTOCOLS => CURLPROTO_HTTP | CURLPROTO_HTTPS,
            CURLOPT_HEADERFUNCTION => static function ($_, string $line) use (&$received): int {
                $colon = strpos($line, ':');
                if ($colon !== false) {
                    $received[strtolower(trim(substr($line, 0, $colon)))] = trim(substr($line, $colon + 1));
                } elseif (str_starts_with($line, 'HTTP/')) {
                    // A new status line (after a 100 Continue): only the last answer's headers count.
                    $received = [];
                }
                return strlen($line);
            },
        ]);
        if ($body !== null) {
            curl_setopt($handle, CURLOPT_POSTFIELDS, $body);
        }
        $answer = curl_exec($handle);
        if ($answer === false) {
            $errno = curl_errno($handle);
            $message = curl_error($handle);
            curl_close($handle);
            throw new TransportFailure($message, $errno === CURLE_OPERATION_TIMEDOUT);
        }
        $status = (int) curl_getinfo($handle, CURLINFO_RESPONSE_CODE);
        curl_close($handle);
        return ['status' => $status, 'headers' => $received, 'body' => (string) $answer];
    }
}
