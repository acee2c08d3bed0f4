-- A Haskell program with known cost centres, profiled by GHC's cost-centre profiler
-- (tests/ghc/record.sh): `sumSquares` folds three million squares (most of the time and the
-- allocation), `build` makes 200,000 strings, `fib` recurses (242,785 entries).
import Data.List (foldl')
import System.Environment (getArgs)

fib :: Int -> Integer
fib n = if n < 2 then toInteger n else fib (n - 1) + fib (n - 2)

sumSquares :: Int -> Int
sumSquares n = foldl' (+) 0 [x * x | x <- [1 .. n]]

build :: Int -> [String]
build n = [show i ++ "x" | i <- [1 .. n]]

main :: IO ()
main = do
  print (fib 25)
  print (sumSquares 3000000)
  print (length (concat (build 200000)))
