# syntax=docker/dockerfile:1
# OrderService image: multi-stage (SDK builds, ASP.NET runtime runs), non-root, SQLite data on a volume.
#   docker build -t orderservice .
#   docker run -p 8080:8080 -v orderservice-data:/app/data orderservice          # SQLite (default)
#   docker run -p 8080:8080 -e Store__Provider=PostgreSql \
#     -e ConnectionStrings__Orders="Host=db;Username=postgres;Password=...;Database=orders" orderservice

FROM mcr.microsoft.com/dotnet/sdk:10.0 AS build
WORKDIR /source

# Restore from the project files alone, so a code change does not invalidate the package layer.
# global.json is left out on purpose: it pins the developer SDK; the image's own 10.0 SDK builds the same code.
COPY Directory.Build.props Directory.Packages.props .editorconfig ./
COPY src/OrderService/OrderService.csproj src/OrderService/
COPY src/OrderService.Data/OrderService.Data.csproj src/OrderService.Data/
# ReadyToRun (precompiled code) needs a runtime identifier; pass --build-arg RID=linux-arm64 on ARM.
ARG RID=linux-x64
RUN dotnet restore src/OrderService/OrderService.csproj -r $RID

COPY src/ src/
RUN dotnet publish src/OrderService/OrderService.csproj -c Release --no-restore -r $RID --self-contained false \
      -p:PublishReadyToRun=true -o /app/publish -p:UseAppHost=false

# The regular (Ubuntu) runtime image carries ICU, which Microsoft.Data.SqlClient needs (no invariant globalization).
FROM mcr.microsoft.com/dotnet/aspnet:10.0 AS final
WORKDIR /app
COPY --from=build /app/publish .

# The default connection string is "Data Source=data/orders.db", relative to /app: the SQLite file lives
# on this volume, owned by the image's non-root user (APP_UID, 1654).
RUN mkdir -p /app/data && chown "$APP_UID:$APP_UID" /app/data
VOLUME ["/app/data"]

USER $APP_UID
ENV ASPNETCORE_HTTP_PORTS=8080
EXPOSE 8080
ENTRYPOINT ["dotnet", "OrderService.dll"]
