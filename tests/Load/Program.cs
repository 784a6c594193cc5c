Console.WriteLine("load");
