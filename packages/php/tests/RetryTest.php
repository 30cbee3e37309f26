<?php

declare(strict_types=1);

namespace Caisse\Tests;

use Caisse\Caisse;
use Caisse\Exception\ApiException;
use Caisse\Exception\CaisseException;
use Caisse\Exception\ConflictException;
use Caisse\Exception\ConnectionException;
use Caisse\Exception\InvalidRequestException;
use Caisse\Exception\RateLimitException;
use Caisse\HttpClient;
use Caisse\TransportFailure;
use PHPUnit\Framework\TestCase;

/** The retry policy, played on scripted answers: it must be @caisse/node's. */
final class RetryTest extends TestCase
{
    /** @var list<int> */
    private array $slept = [];

    private function client(FakeTransport $transport, float $random = 0.0, array $options = []): Caisse
    {
        $this->slept = [];
        return new Caisse($options + [
            'apiKey' => 'pk_test_abc',
            'secretKey' => 'sk_test_def',
            'baseUrl' => 'http://127.0.0.1:9',
            'transport' => $transport,
            'sleep' => function (int $ms): void {
                $this->slept[] = $ms;
            },
            'random' => static fn (): float => $random,
        ]);
    }

    private static function problem(int $status, string $code, array $headers = [], array $extra = []): array
    {
        return ['status' => $status, 'headers' => $headers + ['content-type' => 'application/problem+json', 'request-id' => 'req_' . $status], 'body' => json_encode(['type' => 'about:blank', 'title' => 'T', 'status' => $status, 'detail' => 'D ' . $code, 'code' => $code] + $extra)];
    }

    private const INTENT = ['status' => 201, 'headers' => ['request-id' => 'req_ok'], 'body' => '{"id":"pi_1","object":"payment_intent","status":"PENDING","amount":"5000"}'];

    public function testUsesTheSameConstantsAsTheNodeClient(): void
    {
        $policy = getenv('CAISSE_NODE_POLICY');
        if ($policy === false) {
            $this->markTestSkipped('CAISSE_NODE_POLICY is not set: run the tests with `npm run test:php`');
        }
        $node = json_decode($policy, true, 512, JSON_THROW_ON_ERROR);
        $this->assertSame($node['apiVersion'], Caisse::API_VERSION);
        $this->assertSame($node['backoff'], ['initialMs' => HttpClient::BACKOFF_INITIAL_MS, 'maxMs' => HttpClient::BACKOFF_MAX_MS]);
        $this->assertSame($node['maxRetryAfterSeconds'], HttpClient::MAX_RETRY_AFTER_SECONDS);
    }

    public function testRetriesAPostWithTheSameIdempotencyKeyAfterBackoff(): void
    {
        $t = new FakeTransport([new TransportFailure('reset'), self::problem(503, 'service_unavailable'), self::INTENT]);
        $caisse = $this->client($t, 1.0);
        $intent = $caisse->intents->create(['amount' => '5000', 'currency' => 'XAF']);
        $this->assertSame('pi_1', $intent['id']);
        $this->assertCount(3, $t->requests);
        $keys = array_map(static fn ($r) => $r['headers']['idempotency-key'], $t->requests);
        $this->assertMatchesRegularExpression('/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/', $keys[0]);
        $this->assertSame([$keys[0], $keys[0], $keys[0]], $keys);
        // random() = 1: the top of each step, 0.5 s then 1 s.
        $this->assertSame([500, 1000], $this->slept);
        $meta = $caisse->lastResponse();
        $this->assertSame(3, $meta->attempts);
        $this->assertSame($keys[0], $meta->idempotencyKey);
        $this->assertSame('req_ok', $meta->requestId);
    }

    public function testJittersInTheUpperHalfOfEachStepUpToEightSeconds(): void
    {
        $answers = array_fill(0, 6, self::problem(500, 'api_error'));
        $answers[] = self::INTENT;
        $caisse = $this->client(new FakeTransport($answers), 0.0, ['maxRetries' => 6]);
        $caisse->intents->retrieve('pi_1');
        $this->assertSame([250, 500, 1000, 2000, 4000, 4000], $this->slept);
    }

    public function testSendsTheCallersIdempotencyKeyAndNoneOnAGet(): void
    {
        $t = new FakeTransport([self::INTENT, self::INTENT]);
        $caisse = $this->client($t);
        $caisse->intents->cancel('pi_1', ['idempotencyKey' => 'order-42-cancel']);
        $caisse->intents->retrieve('pi_1');
        $this->assertSame('order-42-cancel', $t->requests[0]['headers']['idempotency-key']);
        $this->assertSame('{}', $t->requests[0]['body']);
        $this->assertArrayNotHasKey('idempotency-key', $t->requests[1]['headers']);
        $this->assertNull($t->requests[1]['body']);
        $this->assertSame('Bearer sk_test_def', $t->requests[1]['headers']['authorization']);
        $this->assertSame('pk_test_abc', $t->requests[1]['headers']['x-api-key']);
        $this->assertSame(Caisse::API_VERSION, $t->requests[1]['headers']['pay-version']);
        $this->assertSame('http://127.0.0.1:9/gateway/pi_1', $t->requests[1]['url']);
    }

    public function testHonoursRetryAfterAndGivesUpBeyondSixtySeconds(): void
    {
        $caisse = $this->client(new FakeTransport([self::problem(429, 'rate_limited', ['retry-after' => '3']), self::INTENT]));
        $caisse->balance->retrieve();
        $this->assertSame([3000], $this->slept);

        $caisse = $this->client(new FakeTransport([self::problem(429, 'rate_limited', ['retry-after' => '61'])]));
        try {
            $caisse->balance->retrieve();
            $this->fail('no error');
        } catch (RateLimitException $e) {
            $this->assertSame(61, $e->retryAfter);
            $this->assertSame([], $this->slept);
        }
    }

    public function testRetriesWhileTheFirstRequestWithTheKeyIsRunning(): void
    {
        $t = new FakeTransport([self::problem(409, 'idempotency_request_in_progress'), self::INTENT]);
        $this->client($t)->intents->create(['amount' => '5000', 'currency' => 'XAF']);
        $this->assertCount(2, $t->requests);

        $t = new FakeTransport([self::problem(409, 'intent_state_invalid', [], ['intentStatus' => 'SUCCEEDED'])]);
        try {
            $this->client($t)->intents->cancel('pi_1');
            $this->fail('no error');
        } catch (ConflictException $e) {
            $this->assertSame('intent_state_invalid', $e->code);
            $this->assertSame('SUCCEEDED', $e->raw['intentStatus']);
            $this->assertCount(1, $t->requests);
        }
    }

    public function testStopsAfterMaxRetries(): void
    {
        $t = new FakeTransport([new TransportFailure('timed out', true), new TransportFailure('timed out', true), new TransportFailure('timed out', true)]);
        try {
            $this->client($t)->intents->create(['amount' => '5000', 'currency' => 'XAF']);
            $this->fail('no error');
        } catch (ConnectionException $e) {
            $this->assertSame('timeout', $e->code);
            $this->assertNull($e->status);
            $this->assertNotNull($e->idempotencyKey);
            $this->assertCount(3, $t->requests);
        }
    }

    public function testNeverRetriesAClientError(): void
    {
        $t = new FakeTransport([self::problem(400, 'amount_invalid', [], ['param' => 'amount'])]);
        try {
            $this->client($t)->intents->create(['amount' => 'x', 'currency' => 'XAF']);
            $this->fail('no error');
        } catch (InvalidRequestException $e) {
            $this->assertSame(['amount_invalid', 400, 'amount', 'req_400', 'D amount_invalid'], [$e->code, $e->status, $e->param, $e->requestId, $e->getMessage()]);
            $this->assertSame('amount_invalid', $e->getCode());
            $this->assertCount(1, $t->requests);
        }
    }

    public function testNamesAnAnswerWithoutAProblemBody(): void
    {
        $caisse = $this->client(new FakeTransport([['status' => 502, 'body' => '<html>bad gateway</html>'], ['status' => 418], ['status' => 200, 'body' => 'not json']]), 0.0, ['maxRetries' => 0]);
        foreach ([[ApiException::class, 'api_error', 502], [InvalidRequestException::class, 'http_418', 418], [ApiException::class, 'invalid_response', 200]] as [$class, $code, $status]) {
            try {
                $caisse->events->list();
                $this->fail('no error');
            } catch (CaisseException $e) {
                $this->assertInstanceOf($class, $e);
                $this->assertSame([$code, $status], [$e->code, $e->status]);
            }
        }
    }

    public function testRefusesKeysAndAddressesAsTheNodeClientDoes(): void
    {
        $cases = [
            [['apiKey' => 'sk_test_x', 'secretKey' => 'sk_test_y', 'baseUrl' => 'https://pay.example'], 'publishable'],
            [['apiKey' => 'pk_test_x', 'secretKey' => 'sk_live_y', 'baseUrl' => 'https://pay.example'], 'same mode'],
            [['apiKey' => 'pk_live_x', 'secretKey' => 'sk_live_y', 'baseUrl' => 'http://pay.example'], 'https'],
            [['apiKey' => 'pk_live_x', 'secretKey' => 'sk_live_y', 'baseUrl' => 'http://pay.example', 'allowInsecureHttp' => true], 'test keys only'],
        ];
        foreach ($cases as [$options, $says]) {
            try {
                new Caisse($options);
                $this->fail('accepted ' . json_encode($options));
            } catch (\InvalidArgumentException $e) {
                $this->assertStringContainsString($says, $e->getMessage());
            }
        }
        $this->assertInstanceOf(Caisse::class, new Caisse(['apiKey' => 'pk_test_x', 'secretKey' => 'sk_test_y', 'baseUrl' => 'http://10.0.0.5:8080', 'allowInsecureHttp' => true]));
        $this->assertInstanceOf(Caisse::class, new Caisse(['apiKey' => 'pk_live_x', 'secretKey' => 'sk_live_y', 'baseUrl' => 'http://localhost:8080']));
    }
}
